/**
 * A rates query in words, and the notes on the method an export carries (what was searched, how, over
 * which data): what an analyst attaches to a price to show how it was reached.
 */
import type { RatesQuery } from './rates-query.ts';

/** The figures a memo quotes, over the export's matches (the view's own: the API's or the DB worker's). */
export interface ExportFigures {
  count: number;
  avg: number | null;
  std: number | null;
  median: number | null;
  /** Keyed "10.0", "25.0", … as the API's histogram_percentiles. */
  percentiles: Record<string, number | null>;
  /** The proposed price's rank among the matches, when one is checked. */
  check: { below: number; equal: number; percentileRank: number | null; differencePercent: number | null } | null;
}

const EDUCATION_WORDS: Record<string, string> = {
  HS: 'high school',
  AA: 'associate',
  BA: 'bachelor',
  MA: 'master',
  PHD: 'doctorate',
  TEC: 'technical school or certification',
  NONE: 'none',
  OTHER: 'other',
};
const SEARCH_WORDS: Record<string, string> = { labor_category: 'labor category', vendor_name: 'vendor', idv_piid: 'contract' };
const YEAR_WORDS: Record<string, string> = { current_price: 'current year', next_year_price: 'next year', second_year_price: 'second year' };

const orList = (items: readonly string[]): string => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`);

function range([lo, hi]: [number | null, number | null], unit: (n: number) => string): string {
  if (lo !== null && hi !== null) return `between ${unit(lo)} and ${unit(hi)}`;
  return lo !== null ? `at least ${unit(lo)}` : `at most ${unit(hi!)}`;
}

/** "Rates whose labor category, vendor or contract contains “engineer”; education bachelor or master; …" */
export function describeRatesQuery(q: RatesQuery): string {
  const parts: string[] = [];
  if (q.mode === 'titles') {
    parts.push(q.titles.length ? `labor category is exactly one of ${orList(q.titles.map((t) => `“${t}”`))}` : 'no titles pooled yet');
  } else {
    if (q.search) parts.push(`${SEARCH_WORDS[q.search.field]} is “${q.search.text}”`);
    if (q.keyword.trim()) parts.push(`labor category, vendor or contract contains “${q.keyword.trim()}”`);
  }
  if (q.education.length) parts.push(`education ${orList(q.education.map((e) => EDUCATION_WORDS[e] ?? e))}`);
  if (q.experience[0] !== null || q.experience[1] !== null) parts.push(`minimum experience ${range(q.experience, (n) => `${n} years`)}`);
  if (q.price[0] !== null || q.price[1] !== null) parts.push(`current price ${range(q.price, (n) => `$${n}`)}`);
  if (q.businessSize) parts.push(q.businessSize === 'S' ? 'small businesses' : 'other than small businesses');
  if (q.site) parts.push(`worksite ${q.site}`);
  if (q.clearance) parts.push(q.clearance === 'yes' ? 'clearance required' : 'no clearance required');
  if (q.sin.trim()) parts.push(`SIN ${q.sin.trim()}`);
  if (q.category.trim()) parts.push(`category “${q.category.trim()}”`);
  if (q.exclude.length) parts.push(`${q.exclude.length} ${q.exclude.length === 1 ? 'record' : 'records'} excluded by hand (ids ${q.exclude.join(', ')})`);
  return parts.length ? `Rates where ${parts.join('; ')}` : 'Every rate';
}

export interface DatasetNote {
  version: string | null;
  /** The data's date (a built-in source's date or span, an imported file's date), or null when unknown. */
  date: string | null;
  /** An imported file's name (null: the build's dataset). */
  importName: string | null;
  /** The build's word on where its records came from ("Synthetic: …" or "Real: …"); null for an import. */
  sourceLabel: string | null;
}

const money = (n: number | null): string => (n === null ? 'none' : `$${n.toFixed(2)}`);

/** The figures as metadata rows: count, mean and standard deviation, median and percentiles, the proposed price's rank. */
function figureNotes(q: RatesQuery, figures: ExportFigures): [string, string][] {
  const on = YEAR_WORDS[q.year];
  const notes: [string, string][] = [
    ['Rates with a price', `${figures.count} (figures over the ${on} price)`],
    ['Mean', money(figures.avg)],
    ['Standard deviation', figures.std === null ? 'none' : figures.std.toFixed(2)],
    ['Median', money(figures.median)],
    [
      'Percentiles',
      Object.entries(figures.percentiles)
        .map(([p, v]) => `p${Number(p)} ${money(v)}`)
        .join('; '),
    ],
  ];
  const check = figures.check;
  if (q.proposed !== null && check) {
    const rank = check.percentileRank === null ? 'none' : `${check.percentileRank.toFixed(1)}th percentile`;
    const distance =
      check.differencePercent === null ? '' : `, ${check.differencePercent > 0 ? '+' : ''}${check.differencePercent.toFixed(1)}% from the median`;
    notes.push(['Proposed price rank', `${rank}: ${check.below} rates below it, ${check.equal} equal${distance}`]);
  }
  return notes;
}

/** The metadata rows an export carries after the query's own (search and filters as sent); the figures when the view has them. */
export function methodNotes(q: RatesQuery, apiUrl: string, dataset: DatasetNote, exportedAt: Date, figures: ExportFigures | null = null): [string, string][] {
  const notes: [string, string][] = [
    ['Query in words', describeRatesQuery(q)],
    ['API request', `GET ${apiUrl}`],
    ['Dataset', `Ceiling rates${dataset.importName ? `, imported from ${dataset.importName}` : ''}, version ${dataset.version ?? 'unknown'}`],
    ['Dataset date', dataset.date ?? 'unknown'],
    ['Exported', exportedAt.toISOString()],
  ];
  // A generated price must never pass for a real one once the file leaves the app.
  if (dataset.sourceLabel) notes.splice(3, 0, ['Data source', dataset.sourceLabel]);
  if (q.year !== 'current_price') notes.push(['Figures computed on', `${YEAR_WORDS[q.year]} price`]);
  if (q.proposed !== null) notes.push(['Proposed price', `$${q.proposed.toFixed(2)}`]);
  if (figures) notes.push(...figureNotes(q, figures));
  return notes;
}
