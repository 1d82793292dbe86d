/**
 * Checks a peer's answer against the engine's response body: the total, the page's ids, every term
 * aggregation (buckets in order, sum_other_doc_count), statistics and percentiles within 1e-9 relative,
 * the histogram, suggestions. Returns one line per difference; none means equal.
 */
import type { Answer, TermsAnswer } from './duckdb.ts';
import type { HistogramBucket } from '../../engine/ceilingrates/query/histogram.ts';

const TOLERANCE = 1e-9;

const close = (a: number | null | undefined, b: number | null | undefined): boolean =>
  a === b || (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= TOLERANCE * Math.max(Math.abs(a), Math.abs(b)));

interface EngineBody {
  hits?: { total: number | { value: number }; hits: { _id: string }[] };
  aggregations?: Record<string, unknown>;
  [suggestion: string]: unknown;
}

/** The engine's response in the comparison's terms. */
export function engineAnswer(body: string): Answer {
  const parsed = JSON.parse(body) as EngineBody;
  if (!parsed.hits) {
    const suggest: Answer['suggest'] = {};
    for (const [key, entries] of Object.entries(parsed)) {
      suggest[key] = (entries as { options: { text: string; _id: string }[] }[]).map((e) => e.options.map(({ text, _id }) => ({ text, _id })));
    }
    return { suggest };
  }
  const t = parsed.hits.total;
  const aggs = parsed.aggregations ?? {};
  const answer: Answer = { total: typeof t === 'number' ? t : t.value, terms: {} };
  for (const [name, value] of Object.entries(aggs)) {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.buckets) && 'sum_other_doc_count' in v)
      answer.terms![name] = { sum_other_doc_count: v.sum_other_doc_count as number, buckets: v.buckets as TermsAnswer['buckets'] };
  }
  // education_level_counts is production's six fixed buckets (zeros included), absent when nothing matches: compared
  // with the peer's terms over the same codes as the non-zero buckets by count, then code.
  if ('wage_stats' in aggs) {
    const education = (aggs.education_level_counts as { buckets: TermsAnswer['buckets'] } | undefined)?.buckets ?? [];
    answer.terms!.education_level_counts = {
      sum_other_doc_count: 0,
      buckets: education.filter((b) => b.doc_count > 0).sort((x, y) => y.doc_count - x.doc_count || (x.key < y.key ? -1 : 1)),
    };
  }
  if ('wage_stats' in aggs) {
    answer.ids = parsed.hits.hits.map((h) => h._id);
    answer.stats = aggs.wage_stats as Answer['stats'];
    const values = (aggs.histogram_percentiles as { values: Record<string, number | null> }).values;
    answer.percentiles = { median: (aggs.median_price as { values: Record<string, number | null> }).values['50.0'], ...values };
    answer.histogram = (aggs.wage_histogram as { buckets: HistogramBucket[] }).buckets;
  }
  return answer;
}

function flatten(value: unknown, prefix: string, into: Map<string, unknown>): void {
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, into);
  } else into.set(prefix, value);
}

export function differences(engine: Answer, peer: Answer): string[] {
  const out: string[] = [];
  if (engine.total !== peer.total) out.push(`hits.total: engine ${engine.total}, peer ${peer.total}`);
  if (JSON.stringify(engine.ids) !== JSON.stringify(peer.ids)) out.push(`page ids differ: engine ${engine.ids?.slice(0, 5)}…, peer ${peer.ids?.slice(0, 5)}…`);
  if (JSON.stringify(engine.suggest) !== JSON.stringify(peer.suggest))
    out.push(`suggestions differ: engine ${JSON.stringify(engine.suggest)}, peer ${JSON.stringify(peer.suggest)}`);
  for (const name of new Set([...Object.keys(engine.terms ?? {}), ...Object.keys(peer.terms ?? {})])) {
    const e = engine.terms?.[name];
    const p = peer.terms?.[name];
    if (!e || !p) {
      out.push(`${name}: only the ${e ? 'engine' : 'peer'} answers it`);
      continue;
    }
    if (e.sum_other_doc_count !== p.sum_other_doc_count)
      out.push(`${name}.sum_other_doc_count: engine ${e.sum_other_doc_count}, peer ${p.sum_other_doc_count}`);
    const at = e.buckets.findIndex((b, i) => b.key !== p.buckets[i]?.key || b.doc_count !== p.buckets[i]?.doc_count);
    if (at >= 0 || e.buckets.length !== p.buckets.length) {
      const i = at >= 0 ? at : Math.min(e.buckets.length, p.buckets.length);
      const show = (b?: { key: string; doc_count: number }): string => (b ? `${JSON.stringify(b.key)}:${b.doc_count}` : 'none');
      out.push(`${name} bucket ${i}: engine ${show(e.buckets[i])}, peer ${show(p.buckets[i])}`);
    }
  }
  const numbers = (a: unknown, b: unknown, what: string): void => {
    const fa = new Map<string, unknown>();
    const fb = new Map<string, unknown>();
    flatten(a, '', fa);
    flatten(b, '', fb);
    // One line per field name (a histogram's keys differ together): how many differ, and the first.
    const byField = new Map<string, string[]>();
    for (const key of new Set([...fa.keys(), ...fb.keys()])) {
      if (close(fa.get(key) as number, fb.get(key) as number)) continue;
      const field = key.replace(/^\d+\./, '');
      byField.set(field, [...(byField.get(field) ?? []), `${key}: engine ${fa.get(key)}, peer ${fb.get(key)}`]);
    }
    for (const [field, lines] of byField) out.push(`${what}.${field}: ${lines.length} differ, first ${lines[0]}`);
  };
  numbers(engine.stats, peer.stats, 'wage_stats');
  numbers(engine.percentiles, peer.percentiles, 'percentiles');
  numbers(engine.histogram, peer.histogram, 'wage_histogram');
  return out;
}

/** "field: n requests (first: …)" for each kind of difference, keyed by what differs rather than the detail. */
export function summarizeDifferences(lines: readonly { url: string; difference: string }[]): string[] {
  const groups = new Map<string, { url: string; difference: string }[]>();
  for (const line of lines) {
    const what = line.difference.replace(/:.*$/, '').replace(/ bucket \d+$/, ' bucket order');
    groups.set(what, [...(groups.get(what) ?? []), line]);
  }
  return [...groups].map(([what, list]) => `${what}: ${list.length} request(s), e.g. ${list[0].url} → ${list[0].difference}`);
}
