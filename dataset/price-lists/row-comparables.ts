/**
 * One reviewed row's comparables as the rates view shows them behind the review's link ("the comparables of row N
 * of this review"): exactly the set the review counted (comparables.ts `select`: the same match, band, contract
 * left out and counting), their figures over the current price as the rates view draws them, the row's own
 * figures and flag as the review computed them (review.ts `priceAmong`), and a page of the records, in an order
 * the rates table asks for.
 */
import type { Database } from 'sql.js';
import { CEILINGRATES_TABLE, RECORD_FIELDS } from '../../engine/ceilingrates/record.ts';
import { SOURCE_JSON_SQL } from '../../engine/ceilingrates/query/source.ts';
import { PERCENTILES, percentiles } from '../../engine/ceilingrates/query/aggregations.ts';
import { statsFrom } from '../../engine/ceilingrates/query/wage-stats.ts';
import { priceCountsOfSorted, wageHistogram } from '../../engine/ceilingrates/query/histogram.ts';
import { priceCheck, type PriceFigures } from '../../engine/ceilingrates/price-figures.ts';
import { comparisonIndex, type MatchKind } from './comparables.ts';
import { priceAmong, type ReviewedRow } from './review.ts';

/** What a link names: the row's match, band and counting, the contract left out, and the row's price. */
export interface RowComparablesQuery {
  match: Exclude<MatchKind, 'none'>;
  /** The normalised title (exact) or phrase. */
  phrase: string;
  education: string;
  years: [number, number] | null;
  /** The list's own contract, left out. */
  contract: string;
  onePerOffer: boolean;
  minComparables: number;
  price: number;
}

export interface RowComparablesPage {
  page: number;
  pageSize: number;
  ordering: readonly { field: string; dir: 'asc' | 'desc' }[];
}

export interface RowComparables {
  count: number;
  /** Over the comparables' current prices, the row's price checked: what the rates view's figures draw. */
  figures: PriceFigures;
  /** The row's figures and flag, as the review has them. */
  row: Pick<ReviewedRow, 'p25' | 'median' | 'p75' | 'mean' | 'sd' | 'sdFromMean' | 'fromMedian' | 'percentile' | 'flag'>;
  /** The page's records, `_source` as the API writes it. */
  hits: { _id: string; _source: Record<string, unknown>; sort: (number | string | null)[] }[];
}

/** The rates view's figures over prices sorted ascending, with `price` checked: the API's functions over this set. */
function figuresOf(sorted: Float64Array, price: number): PriceFigures {
  const n = sorted.length;
  let sum = 0;
  let sumOfSquares = 0;
  for (let i = 0; i < n; i++) {
    sum += sorted[i];
    sumOfSquares += sorted[i] * sorted[i];
  }
  const counts = priceCountsOfSorted(sorted, n);
  const [median, ...others] = percentiles(counts, [50, ...PERCENTILES]);
  const byKey: Record<string, number | null> = {};
  PERCENTILES.forEach((p, i) => (byKey[p.toFixed(1)] = others[i]));
  return {
    field: 'current_price',
    matches: n,
    stats: statsFrom({ count: n, sum, sumOfSquares, min: sorted[0], max: sorted[n - 1] }),
    median,
    percentiles: byKey,
    histogram: wageHistogram(counts),
    check: priceCheck(sorted, median, price),
    titles: [],
  };
}

/** An ORDER BY of record fields only (a link can say anything), the price then the id breaking ties. */
function orderBy(ordering: RowComparablesPage['ordering']): string {
  const known = new Set<string>(RECORD_FIELDS);
  const terms = ordering.filter((o) => known.has(o.field)).map((o) => `${o.field} ${o.dir === 'desc' ? 'DESC' : 'ASC'}`);
  return [...terms, 'current_price ASC', 'id ASC'].join(', ');
}

export function rowComparables(db: Database, query: RowComparablesQuery, page: RowComparablesPage): RowComparables {
  const index = comparisonIndex(db);
  const records = index.select(query.match, query.phrase, { education: query.education, years: query.years, contract: query.contract }, query.onePerOffer);
  const sorted = Float64Array.from(records, (r) => index.prices[r]).sort();
  const ids = JSON.stringify(Array.from(records, (r) => index.ids[r]));
  const size = Math.max(1, Math.min(page.pageSize, 1000));
  const offset = (Math.max(1, page.page) - 1) * size;
  const found = db.exec(
    `SELECT id, ${SOURCE_JSON_SQL} FROM ${CEILINGRATES_TABLE} WHERE id IN (SELECT value FROM json_each(?)) ORDER BY ${orderBy(page.ordering)} LIMIT ? OFFSET ?`,
    [ids, size, offset],
  )[0];
  const { flag, p25, median, p75, mean, sd, sdFromMean, fromMedian, percentile } = priceAmong(sorted, query.price, sorted.length >= query.minComparables);
  return {
    count: records.length,
    figures: figuresOf(sorted, query.price),
    row: { p25, median, p75, mean, sd, sdFromMean, fromMedian, percentile, flag },
    hits: (found?.values ?? []).map(([id, source]) => ({ _id: String(id), _source: JSON.parse(String(source)) as Record<string, unknown>, sort: [] })),
  };
}
