/**
 * A plain-TypeScript reference of the ceiling-rates semantics (docs/api/ceiling-rates.md), written the obvious way over
 * an array of records: filter with predicates, sort with comparators, count with maps. The property test
 * compares the engine with it. It deliberately shares no code with the engine.
 */
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';

export interface RefQuery {
  searches: { field: 'labor_category' | 'vendor_name' | 'idv_piid'; text: string }[];
  keyword: string | null;
  filters: string[];
  exclude: number[];
  /** `keywords` and `certifications` are accepted orderings no record holds: their value is null. */
  ordering: { field: keyof CeilingRateRecord | 'keywords' | 'certifications'; desc: boolean }[];
  page: number;
  pageSize: number;
}

const codePoints = (s: string): number[] => Array.from(s, (c) => c.codePointAt(0)!);
export function byteOrder(a: string, b: string): number {
  const x = codePoints(a);
  const y = codePoints(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

const splitSin = (sin: string): string[] =>
  sin
    .split(/,|;|\/|\s|\n/)
    .filter((t) => t.length > 0 && t.toLowerCase() !== 'and')
    .map((t) => t.replace(/\.[0-9]+$/, ''));

/** Production's spelled-out education levels (recorded 2026-10-10) and the code each names. */
const SPELLED_EDUCATION: Readonly<Record<string, string>> = {
  'High School': 'HS',
  'High School Equivalent': 'HS',
  Associates: 'AA',
  Bachelors: 'BA',
  Masters: 'MA',
  PhD: 'PHD',
  'Other Tech School or Certification': 'TEC',
};

function filterMatches(record: CeilingRateRecord, filter: string): boolean {
  const colon = filter.indexOf(':');
  const name = filter.slice(0, colon);
  const alternatives = filter.slice(colon + 1).split('|');
  return alternatives.some((value) => {
    switch (name) {
      case 'education_level':
        // Production's 2026 words name the same levels as the codes (docs/api/differences.md), in both dialects.
        return record.education_level === (SPELLED_EDUCATION[value] ?? value);
      case 'business_size':
        return record.business_size === value;
      case 'price_range': {
        const [lo, hi] = value.split(',').map(Number);
        return record.current_price >= lo && record.current_price <= hi;
      }
      case 'experience_range': {
        const [lo, hi] = value.split(',').map(Number);
        return record.min_years_experience >= lo && record.min_years_experience <= hi;
      }
      case 'current_price':
        return record.current_price === Number(value);
      case 'min_years_experience':
        return record.min_years_experience === Number(value);
      case 'sin':
        return splitSin(record.sin).includes(value.trim().replace(/\.[0-9]+$/, ''));
      case 'category':
        return record.category
          .split(';')
          .map((s) => s.trim())
          .includes(value.trim());
      case 'subcategory':
        return record.subcategory
          .split(';')
          .map((s) => s.trim())
          .includes(value.trim());
      case 'site': {
        const have = ` ${record.worksite
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .join(' ')} `;
        const want = value
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .filter(Boolean)
          .join(' ');
        return want !== '' && have.includes(` ${want} `);
      }
      case 'vendor_name':
      case 'labor_category':
      case 'worksite':
        return true; // ignored, as production ignores them
      case 'security_clearance': {
        const v = (record.security_clearance ?? '').trim().toLowerCase();
        const said = value.trim().toLowerCase();
        // Production's boolean words: `true` is yes, `false` is no.
        const want = said === 'true' ? 'yes' : said === 'false' ? 'no' : said;
        if (want === 'yes') return v === 'yes' || v === 'true';
        if (want === 'no') return v === 'no' || v === 'none' || v === 'n/a' || v === 'false';
        return false;
      }
      default:
        throw new Error(`reference: unknown filter ${name}`);
    }
  });
}

export function refMatches(records: readonly CeilingRateRecord[], query: RefQuery): CeilingRateRecord[] {
  return records.filter((r) => {
    // search: the whole value, exactly (case-sensitive, untrimmed), compared with the text up to a second colon;
    // an empty text is ignored.
    for (const s of query.searches) {
      const text = s.text.split(':')[0];
      if (text !== '' && r[s.field] !== text) return false;
    }
    if (query.keyword !== null) {
      const k = query.keyword.trim().toLowerCase();
      if (![r.labor_category, r.vendor_name, r.idv_piid].some((v) => v.toLowerCase().includes(k))) return false;
    }
    for (const f of query.filters) if (!filterMatches(r, f)) return false;
    return !query.exclude.includes(r.id);
  });
}

/** A record's value for an ordering field: null for the fields records do not hold. */
export function refSortValue(record: CeilingRateRecord, field: RefQuery['ordering'][number]['field']): string | number | null {
  return field === 'keywords' || field === 'certifications' ? null : record[field];
}

export function refCompare(ordering: RefQuery['ordering']) {
  return (a: CeilingRateRecord, b: CeilingRateRecord): number => {
    for (const { field, desc } of ordering) {
      const x = refSortValue(a, field);
      const y = refSortValue(b, field);
      if (x === y) continue;
      if (x === null) return 1;
      if (y === null) return -1;
      const c = typeof x === 'number' ? x - (y as number) : byteOrder(x as string, y as string);
      if (c !== 0) return desc ? -c : c;
    }
    return a.id - b.id;
  };
}

export function refPage(matches: readonly CeilingRateRecord[], query: RefQuery): CeilingRateRecord[] {
  const ordering = query.ordering.length ? query.ordering : [{ field: 'current_price' as const, desc: false }];
  const sorted = [...matches].sort(refCompare(ordering));
  const offset = (query.page - 1) * query.pageSize;
  return sorted.slice(offset, offset + query.pageSize);
}

export interface RefTerms {
  doc_count_error_upper_bound: number;
  sum_other_doc_count: number;
  buckets: { key: string; doc_count: number }[];
}

/** Terms: doc_count descending, then the key ascending in byte order (numbers' keys too: "10" before "3"). */
export function refTerms(values: readonly (string | null)[], size: number): RefTerms {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  const all = [...counts.entries()].map(([key, doc_count]) => ({ key, doc_count })).sort((a, b) => b.doc_count - a.doc_count || byteOrder(a.key, b.key));
  const buckets = all.slice(0, size);
  const other = all.slice(size).reduce((n, b) => n + b.doc_count, 0);
  return { doc_count_error_upper_bound: 0, sum_other_doc_count: other, buckets };
}

/** education_level_counts: the six codes in order, zero counts kept; absent (undefined) when nothing matches. */
export function refEducationCounts(levels: readonly (string | null)[]): { buckets: { key: string; doc_count: number }[] } | undefined {
  if (levels.length === 0) return undefined;
  const codes = levels.map(refEducationCode);
  return { buckets: ['AA', 'BA', 'HS', 'MA', 'PHD', 'TEC'].map((key) => ({ key, doc_count: codes.filter((c) => c === key).length })) };
}

/** education_level_counts' key of a stored level: trimmed, upper-cased, one of six codes, else no bucket. */
export function refEducationCode(level: string | null): string | null {
  const code = level?.trim().toUpperCase() ?? null;
  return code !== null && ['AA', 'BA', 'HS', 'MA', 'PHD', 'TEC'].includes(code) ? code : null;
}

/** wage_histogram's key: the mean of the prices inside the bucket. */
export function refBucketMean(sorted: readonly number[], min: number, max: number): number {
  const inside = sorted.filter((v) => v >= min && v <= max);
  return inside.reduce((sum, v) => sum + v, 0) / inside.length;
}

export function refPercentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const frac = rank - lo;
  return frac === 0 ? sorted[lo] : sorted[lo] * (1 - frac) + sorted[lo + 1] * frac;
}

export function refStats(prices: readonly number[]): Record<string, number | string | null> {
  const n = prices.length;
  if (n === 0) return { count: 0, sum: 0, min: null, max: null, avg: null };
  let sum = 0;
  let squares = 0;
  for (const p of prices) {
    sum += p;
    squares += p * p;
  }
  const avg = sum / n;
  const variance = Math.max(0, (squares - (sum * sum) / n) / n);
  // One price: production writes the sample statistics as the string "NaN".
  const sampling = n > 1 ? Math.max(0, (squares - (sum * sum) / n) / (n - 1)) : 'NaN';
  return {
    count: n,
    min: Math.min(...prices),
    max: Math.max(...prices),
    avg,
    sum,
    sum_of_squares: squares,
    variance,
    variance_population: variance,
    variance_sampling: sampling,
    std_deviation: Math.sqrt(variance),
    std_deviation_sampling: sampling === 'NaN' ? 'NaN' : Math.sqrt(sampling),
  };
}
