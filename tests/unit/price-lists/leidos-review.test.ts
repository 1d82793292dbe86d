/**
 * The review of the largest real price list (Leidos', GS-35F-116AA, 3,434 hourly labor rows, as the repository ships
 * its facts) against the default rates (the real 2025 MAS price lists): no row is compared by a level word or a
 * phrase under 4 characters, no price is flagged on fewer than 5 comparables, every row's link selects exactly its
 * comparables with its figures, and the method page's worked example shows the figures the review computes.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'sql.js';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { gsaRatesDatabase, shippedPriceLists } from '../../../tools/real-data.ts';
import { comparisonIndex, experienceBand } from '../../../dataset/price-lists/comparables.ts';
import { isLevelOrFiller, MIN_PHRASE_CHARACTERS } from '../../../dataset/price-lists/phrases.ts';
import { reviewPriceList, type PriceListReview } from '../../../dataset/price-lists/review.ts';
import { REVIEW_CSV_HEADER, reviewCsvLine } from '../../../dataset/price-lists/review-csv.ts';
import { rowComparables } from '../../../dataset/price-lists/row-comparables.ts';
import type { PriceList } from '../../../dataset/price-lists/sheet.ts';
import { comparablesParams, parseComparablesLink } from '../../../ui/state/review-link.ts';

let db: Database;
let leidos: PriceList;
let review: PriceListReview;

beforeAll(async () => {
  const SQL = await loadSqlJs();
  db = gsaRatesDatabase(SQL).db;
  leidos = shippedPriceLists().lists.find((list) => list.contract === 'GS35F116AA')!;
  review = reviewPriceList(db, leidos);
}, 120_000);

describe("Leidos' 3,434-row list against the default rates", () => {
  it('compares no row by level or filler words alone, nor by a phrase under 4 characters', () => {
    expect(review.rows).toHaveLength(3434);
    const matched = review.rows.filter((row) => row.match !== 'none');
    expect(matched.length).toBeGreaterThan(3400);
    for (const row of matched) {
      expect(row.phrase.length, row.title).toBeGreaterThanOrEqual(MIN_PHRASE_CHARACTERS);
      expect(row.phrase.split(' ').every(isLevelOrFiller), `${row.title}: ${row.phrase}`).toBe(false);
    }
  });

  it('judges no price on fewer than 5 comparables, and says "too few" for each such row', () => {
    for (const row of review.rows) {
      if (row.flag === 'above' || row.flag === 'below' || row.flag === 'within') expect(row.comparables, row.title).toBeGreaterThanOrEqual(5);
      else expect(row.comparables, row.title).toBeLessThan(5);
    }
    expect(review.rows.filter((row) => row.flag === 'above' || row.flag === 'below').length).toBeGreaterThan(1000);
  });

  it("links each row to exactly its comparables: the link's set has the row's count, quartiles, percentile and flag", () => {
    const seen = new Set<number>();
    for (const row of review.rows) {
      // Rows of one comparison share the set; each price is checked once per comparison and flag.
      const key = row.comparison * 4 + ['above', 'below', 'within', 'too few'].indexOf(row.flag);
      if (row.match === 'none' || seen.has(key)) continue;
      seen.add(key);
      const link = parseComparablesLink(comparablesParams(review, row))!;
      const found = rowComparables(db, link.query, { page: 1, pageSize: 1, ordering: [] });
      const { p25, median, p75, percentile, flag } = row;
      expect({ count: found.count, ...found.row }, row.title).toMatchObject({ count: row.comparables, p25, median, p75, percentile, flag });
      expect(found.hits.every((hit) => hit._source.idv_piid !== leidos.contract)).toBe(true);
    }
    expect(seen.size).toBeGreaterThan(400);
  });
});

describe('the method page', () => {
  const page = readFileSync(new URL('../../../docs/api/price-list-review.md', import.meta.url), 'utf8');
  const example = page.slice(page.indexOf('## A worked example'), page.indexOf('## What the review exports'));
  /** A two-column table's rows under a header, as label → text. */
  const table = (header: string): Map<string, string> => {
    const lines = example.slice(example.indexOf(header)).split('\n').slice(2);
    const rows = lines.slice(
      0,
      lines.findIndex((line) => !line.startsWith('|')),
    );
    return new Map(
      rows.map(
        (line) =>
          line
            .split('|')
            .slice(1, 3)
            .map((cell) => cell.trim()) as [string, string],
      ),
    );
  };

  it("shows the worked example's figures as the review computes them", () => {
    const row = review.rows.find((r) => r.title === 'Accountant 3')!;
    expect(example.replace(/\s+/g, ' ')).toContain(
      `offers **Accountant 3** (SIN ${row.sin}, Bachelors, ${row.minYears} years) at **$${row.price.toFixed(2)}**`,
    );
    const cells = reviewCsvLine(row)
      .match(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)!
      .map((cell) =>
        cell
          .replace(/,$/, '')
          .replace(/^"(.*)"$/, '$1')
          .replace(/""/g, '"'),
      );
    const csv = new Map(REVIEW_CSV_HEADER.map((name, i) => [name, cells[i]]));
    const shown = table('| Figure | Value |');
    expect(shown.size).toBe(11);
    for (const [name, value] of shown) expect(value, name).toBe(csv.get(name as (typeof REVIEW_CSV_HEADER)[number]));
  });

  it('gives the whole list’s counts as the review makes them', () => {
    const n = (test: (row: PriceListReview['rows'][number]) => boolean) => review.rows.filter(test).length.toLocaleString('en-US');
    const said =
      `${n((r) => r.match === 'exact')} rows match by exact title, ${n((r) => r.match === 'phrase')} are broadened ` +
      `(${n((r) => r.match === 'phrase' && r.flag === 'too few')} of them to a match under 5, \`too few comparables\`), ${n((r) => r.match === 'none')} find nothing; ` +
      `${n((r) => r.flag === 'above')} are above p75, ${n((r) => r.flag === 'below')} below p25, ${n((r) => r.flag === 'within')} within, ` +
      `${n((r) => r.flag === 'too few')} too few to judge.`;
    expect(example.replace(/\s+/g, ' ')).toContain(said);
  });

  it("shows the worked example's steps as the index counts them", () => {
    const index = comparisonIndex(db);
    const band = { education: 'BA', years: experienceBand(0), contract: leidos.contract };
    const steps = table('| Step | Found |');
    const count = (step: string) => Number(/^(\d+) comparables/.exec(steps.get(step)!)![1]);
    expect(count('exact title `accountant 3`')).toBe(index.select('exact', 'accountant 3', band, true).length);
    expect(count('phrase `accountant 3`')).toBe(index.select('phrase', 'accountant 3', band, true).length);
    expect(count('phrase `accountant`')).toBe(index.select('phrase', 'accountant', band, true).length);
  });
});
