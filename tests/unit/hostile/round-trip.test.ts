/**
 * Hostile text stored in records comes back from every endpoint as valid JSON holding exactly the stored
 * text: not escaped into entities, not trimmed, not normalised, not cut. Lookups, filters, search,
 * suggestions and aggregation keys that carry the text carry it exactly too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine/index.ts';
import type { ApiResponse } from '../../../engine/http/types.ts';
import { HOSTILE_FIRST_ID, HOSTILE_PAYLOADS, HOSTILE_TARGET_URLS, hostileCeilingRates, hostileWebsites } from '../../../tools/generate/hostile.ts';
import type { WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';
import { readColumnTable } from '../../../engine/ceilingrates/columns/table.ts';
import { hostileMixedEngine } from './fixtures.ts';
import { referenceRecord } from '../../../harness/site-scanning-reference.ts';

const RATES = '/api/v3/search/ceilingrates/';
const q = encodeURIComponent;
let engine: Engine;
const websites = hostileWebsites();
const rates = hostileCeilingRates();

beforeAll(async () => {
  engine = await hostileMixedEngine();
});

/** Parsed JSON of a 200 answer; the raw text must parse on its own (no reliance on the helper). */
function ok(url: string): any {
  const response: ApiResponse = engine.handle({ method: 'GET', url });
  expect(response.status, `${url.slice(0, 200)} → ${response.body.slice(0, 200)}`).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return JSON.parse(response.body);
}

/** Every payload appears in the raw body exactly as JSON.stringify writes it: no `&lt;`, no `\u003c`, no cut. */
function expectVerbatim(rawBody: string, texts: readonly string[]): void {
  for (const text of texts) expect(rawBody.includes(JSON.stringify(text)), `verbatim ${JSON.stringify(text).slice(0, 80)}`).toBe(true);
}

describe('Site Scanning', () => {
  it('the listing returns every hostile record exactly, and the raw JSON carries each text verbatim', () => {
    const items: WebsiteRecord[] = [];
    let raw = '';
    for (let page = 1; ; page++) {
      const response = engine.handle({ method: 'GET', url: `/websites?target_url_domain=hostile.example.gov&limit=20&page=${page}` });
      raw += response.body;
      const body = JSON.parse(response.body);
      items.push(...body.items);
      if (body.links.next === '') break;
    }
    // In target_url byte order (UTF-8), as the API reference promises for the listing.
    const byUrl = (a: WebsiteRecord, b: WebsiteRecord): number => Buffer.compare(Buffer.from(a.target_url), Buffer.from(b.target_url));
    expect(items.length).toBe(websites.length);
    expect(items).toEqual([...websites].sort(byUrl).map(referenceRecord));
    expectVerbatim(
      raw,
      HOSTILE_PAYLOADS.map((p) => p.text),
    );
    expectVerbatim(raw, HOSTILE_TARGET_URLS);
  });

  it('/websites/{url} finds each record by its own target URL, hostile ones included, under both bases', () => {
    for (const record of websites) {
      for (const path of [`/websites/${q(record.target_url)}`, `/technology/site-scanning/v1/websites/https:%2F%2F${q(record.target_url)}/`]) {
        expect(ok(path), path).toEqual(referenceRecord(record));
      }
    }
  });

  it('filtering on a hostile owner name finds exactly its records, and the links keep the name exactly', () => {
    for (const { text } of HOSTILE_PAYLOADS) {
      const expected = websites
        .filter((r) => r.target_url_agency_owner === text)
        .map((r) => r.target_url)
        .sort();
      const body = ok(`/websites?target_url_agency_owner=${q(text)}&target_url_bureau_owner=${q(text)}&limit=100`);
      expect(body.items.map((r: WebsiteRecord) => r.target_url).sort()).toEqual(expected);
      for (const link of [body.links.first, body.links.last]) {
        const params = new URL(link, 'http://localhost').searchParams;
        expect(params.get('target_url_agency_owner')).toBe(text);
        expect(params.get('target_url_bureau_owner')).toBe(text);
      }
      expect(ok(`/analysis?target_url_agency_owner=${q(text)}`).total).toBe(expected.length);
    }
  });
});

describe('ceiling rates', () => {
  it('bind reads the column table, rewritten with the hostile values in it', () => {
    const stored = readColumnTable(engine.database('ceilingrates')!);
    expect(stored?.rows).toBe(300 + rates.length);
    for (const { text } of HOSTILE_PAYLOADS) expect(stored!.text.labor_category.values).toContain(text);
  });

  const hostileHits = (body: any): { _id: string; _source: CeilingRateRecord; sort: unknown[] }[] =>
    body.hits.hits.filter((h: { _source: CeilingRateRecord }) => h._source.id >= HOSTILE_FIRST_ID);

  it('every hostile record comes back exactly in _source, and the raw JSON carries each text verbatim', () => {
    const response = engine.handle({ method: 'GET', url: `${RATES}?page_size=500` });
    const body = JSON.parse(response.body);
    expect(body.hits.total.value).toBe(300 + rates.length);
    const sources = hostileHits(body)
      .map((h) => h._source)
      .sort((a, b) => a.id - b.id);
    expect(sources).toEqual(rates);
    expectVerbatim(
      response.body,
      HOSTILE_PAYLOADS.map((p) => p.text),
    );
  });

  it('aggregation keys are the exact texts', () => {
    const body = ok(`${RATES}?page_size=1`);
    for (const field of ['labor_category', 'worksite', 'education_level', 'business_size', 'security_clearance'] as const) {
      const keys = new Set(body.aggregations[field].buckets.map((b: { key: string }) => b.key));
      if (field === 'labor_category') for (const { text } of HOSTILE_PAYLOADS) expect(keys.has(text), text.slice(0, 60)).toBe(true);
      else for (const key of keys) expect(typeof key).toBe('string');
    }
  });

  it('search=<field>:<hostile text> finds its record, the text sent percent-encoded and exact', () => {
    for (const [i, { text }] of HOSTILE_PAYLOADS.entries()) {
      // A colon in the text ends a search's text there, as production reads it (recorded.test.ts, point 7).
      if (text.includes(':')) continue;
      for (const field of ['labor_category', 'vendor_name', 'idv_piid']) {
        const ids = hostileHits(ok(`${RATES}?search=${field}:${q(text)}&page_size=100`)).map((h) => Number(h._id));
        expect(ids, `${field}:${text.slice(0, 60)}`).toEqual([rates[i].id]);
      }
    }
  });

  it('keyword=<hostile text> finds its record', () => {
    for (const [i, { text }] of HOSTILE_PAYLOADS.entries()) {
      if (text.trim().length < 2) continue;
      const ids = hostileHits(ok(`${RATES}?keyword=${q(text)}&page_size=100`)).map((h) => Number(h._id));
      expect(ids, text.slice(0, 60)).toContain(rates[i].id);
    }
  });

  it('suggest echoes the text and offers the stored value exactly', () => {
    // The suggest text is trimmed and stored values are not, so a value with leading whitespace is never
    // offered (reported to the lead; the contract does not say).
    for (const { text } of HOSTILE_PAYLOADS.filter((p) => p.text.trimStart() === p.text)) {
      const body = ok(`${RATES}?suggest=vendor_name:${q(text)}`);
      const [entry] = body['vendor_name-suggestion'];
      expect(entry.text).toBe(text);
      expect(entry.options.map((o: { text: string }) => o.text)).toContain(text);
    }
  });

  it('suggest-contains buckets hold the stored value exactly', () => {
    for (const { text } of HOSTILE_PAYLOADS) {
      const needle = text.slice(0, 40);
      if (needle.trim().length < 2) continue;
      const body = ok(`${RATES}?suggest-contains=labor_category:${q(needle)}`);
      expect(
        body.aggregations.labor_category.buckets.map((b: { key: string }) => b.key),
        needle,
      ).toContain(text);
    }
  });
});
