/**
 * The engine against a plain in-memory reference (reference.ts) over the same generated records: random
 * filter combinations and pages must give the same records, meta and links, and the same analysis.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Engine } from '../../../engine/index.ts';
import { generateWebsites, websitesDataset } from '../../../tools/generate/websites.ts';
import type { WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { call, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import {
  queryString,
  referenceAnalysis,
  referenceList,
  referenceRecord,
  REFERENCE_FILTERS,
  type ReferenceFilters,
} from '../../../harness/site-scanning-reference.ts';

let engine: Engine;
let records: WebsiteRecord[];
beforeAll(async () => {
  records = generateWebsites(websitesDataset.profiles.small, websitesDataset.seed);
  engine = engineOver('websites', await generatedDatabase('websites'));
});

/** Values seen in the data (so filters hit) plus a few that match nothing. */
function valuesOf(field: keyof WebsiteRecord, misses: string[]): fc.Arbitrary<string> {
  const seen = [...new Set(records.map((r) => r[field]).filter((v): v is string => typeof v === 'string'))].sort();
  return fc.constantFrom(...seen, ...misses);
}

/** A few of one record's own values, so that most draws match something. */
function filtersFromRecord(): fc.Arbitrary<ReferenceFilters> {
  return fc.tuple(fc.constantFrom(...records), fc.subarray([...REFERENCE_FILTERS], { minLength: 0, maxLength: 3 })).map(([record, names]) => {
    const filters: Record<string, unknown> = {};
    for (const name of names) if (record[name] !== null) filters[name] = record[name];
    return filters as ReferenceFilters;
  });
}

/** Filters drawn independently: often contradictory, so mostly empty answers. */
function independentFilters(): fc.Arbitrary<ReferenceFilters> {
  return fc.record(
    {
      target_url_domain: valuesOf('target_url_domain', ['nowhere.gov']),
      final_url_domain: valuesOf('final_url_domain', ['nowhere.gov']),
      final_url_live: fc.boolean(),
      target_url_redirects: fc.boolean(),
      target_url_agency_owner: valuesOf('target_url_agency_owner', ["' OR 1=1 --", 'general services administration', '']),
      target_url_bureau_owner: valuesOf('target_url_bureau_owner', ['No Such Bureau', '']),
      scan_status: valuesOf('scan_status', ['aborted', 'skipped']),
      dap_detected_final_url: fc.boolean(),
    },
    { requiredKeys: [] },
  );
}

function filtersArb(): fc.Arbitrary<ReferenceFilters> {
  return fc.oneof({ arbitrary: filtersFromRecord(), weight: 4 }, { arbitrary: independentFilters(), weight: 1 });
}

describe('engine ≡ in-memory reference (generated small profile)', () => {
  it('GET /websites: random filters, pages and limits', () => {
    let nonEmpty = 0;
    fc.assert(
      fc.property(
        filtersArb(),
        fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 250 })),
        fc.integer({ min: 1, max: 100 }),
        (filters, page, limit) => {
          const { status, body } = call(engine, `/websites${queryString(filters, page, limit)}`);
          expect(status).toBe(200);
          expect(body).toEqual(referenceList(records, filters, page, limit));
          if (body.items.length > 0) nonEmpty++;
        },
      ),
      { numRuns: 300 },
    );
    // The draws must exercise real answers, not just empty pages.
    expect(nonEmpty).toBeGreaterThan(60);
  });

  it('GET /websites with defaults: the first ten', () => {
    fc.assert(
      fc.property(filtersArb(), (filters) => {
        expect(call(engine, `/websites${queryString(filters)}`).body).toEqual(referenceList(records, filters));
      }),
      { numRuns: 100 },
    );
  });

  it('GET /analysis: random filters', () => {
    fc.assert(
      fc.property(filtersArb(), (filters) => {
        expect(call(engine, `/analysis${queryString(filters)}`).body).toEqual(referenceAnalysis(records, filters));
      }),
      { numRuns: 200 },
    );
  });

  it('GET /websites/{url}: every record comes back as generated', () => {
    fc.assert(
      fc.property(fc.constantFrom(...records), (record) => {
        expect(call(engine, `/websites/${encodeURIComponent(record.target_url)}`).body).toEqual(referenceRecord(record));
      }),
      { numRuns: 200 },
    );
  });

  it('following the next links visits every matching record once, in order', () => {
    const filters: ReferenceFilters = { final_url_live: true };
    const seen: string[] = [];
    let url = `/websites?final_url_live=true&limit=100`;
    while (url) {
      const { body } = call(engine, url);
      seen.push(...body.items.map((r: WebsiteRecord) => r.target_url));
      url = body.links.next;
    }
    expect(seen).toEqual(referenceList(records, filters, 1, 10000).items.map((r) => r.target_url));
  });
});
