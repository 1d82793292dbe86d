/**
 * A price-list review as a printable page: one self-contained HTML document (its own styles for screen and print,
 * no script) with what the memo-ready CSV carries: the list, the data compared with, the method, and every row in
 * the file's order. The app opens it in a tab of its own for the browser's Print (or Save as PDF); the command line
 * writes it with `--format html`.
 */
import { FLAG_WORDS, bandWords, matchWords, methodWords, reviewNotes, type ReviewMeta } from './review-csv.ts';
import type { PriceListReview, ReviewedRow } from './review.ts';

const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const money = (n: number | null): string => (n === null ? '—' : `$${n.toFixed(2)}`);
const signed = (n: number | null, digits: number, unit = ''): string =>
  n === null ? '—' : `${n > 0 ? '+' : n < 0 ? '−' : ''}${Math.abs(n).toFixed(digits)}${unit}`;

const STYLE = `
  :root { font-family: system-ui, sans-serif; color: #1b1b1b; }
  body { margin: 1.5rem; }
  h1 { font-size: 1.3rem; margin: 0 0 0.75rem; }
  h2 { font-size: 1rem; margin: 1.25rem 0 0.5rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; margin: 0; font-size: 0.85rem; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  p { font-size: 0.85rem; max-width: 60rem; }
  .synthetic { border: 2px solid #b50909; padding: 0.4rem 0.6rem; color: #b50909; font-weight: 600; }
  table { border-collapse: collapse; width: 100%; font-size: 0.72rem; }
  th, td { border-bottom: 1px solid #ccc; padding: 0.2rem 0.3rem; text-align: left; vertical-align: top; }
  th { background: #f0f0f0; }
  td.num, th.num { text-align: right; white-space: nowrap; }
  td.flag-above, td.flag-below { font-weight: 700; }
  td.flag-too-few { color: #555; }
  .rows { overflow-x: auto; }
  @media (max-width: 40rem) {
    body { margin: 0.75rem; }
    dl { grid-template-columns: 1fr; }
    dd { margin-bottom: 0.3rem; }
  }
  @page { size: landscape; margin: 10mm; }
  @media print {
    body { margin: 0; }
    .rows { overflow: visible; }
    thead { display: table-header-group; }
    tr { break-inside: avoid; }
    h2 { break-after: avoid; }
  }
`;

function rowHtml(row: ReviewedRow): string {
  const cells = [
    [String(row.row + 1), 'num'],
    [row.title, ''],
    [row.sin, ''],
    [money(row.price), 'num'],
    [row.education || '—', ''],
    [`${row.minYears ?? '—'} (${bandWords(row.years)})`, ''],
    [matchWords(row), ''],
    [`${row.comparables}${row.comparison ? ` (#${row.comparison})` : ''}`, 'num'],
    [money(row.p25), 'num'],
    [money(row.median), 'num'],
    [money(row.p75), 'num'],
    [money(row.mean), 'num'],
    [row.sd === null ? '—' : row.sd.toFixed(2), 'num'],
    [signed(row.sdFromMean, 2), 'num'],
    [row.percentile === null ? '—' : row.percentile.toFixed(1), 'num'],
    [signed(row.fromMedian, 1, '%'), 'num'],
    [FLAG_WORDS[row.flag], `flag-${row.flag.replace(' ', '-')}`],
  ];
  return `<tr>${cells.map(([text, cls]) => `<td${cls ? ` class="${cls}"` : ''}>${escapeHtml(text)}</td>`).join('')}</tr>`;
}

const HEADINGS = [
  ['#', 'num'],
  ['Labor category', ''],
  ['SIN', ''],
  ['Price', 'num'],
  ['Edu.', ''],
  ['Years (band)', ''],
  ['Match', ''],
  ['Compa­rables (#)', 'num'],
  ['P25', 'num'],
  ['Median', 'num'],
  ['P75', 'num'],
  ['Mean', 'num'],
  ['SD', 'num'],
  ['SD from mean', 'num'],
  ['Percentile', 'num'],
  ['vs median', 'num'],
  ['Flag', ''],
];

export function reviewMemoHtml(review: PriceListReview, meta: ReviewMeta): string {
  const count = (test: (row: ReviewedRow) => boolean): number => review.rows.filter(test).length;
  const notes = reviewNotes(review, meta).filter(([label]) => label !== 'Method' && label !== 'Price list review');
  const title = `Price list review: ${review.vendor} (${review.contract})`;
  const synthetic = /^synthetic/i.test(meta.source.label)
    ? `<p class="synthetic">The rates compared with are generated (synthetic), not real prices: this review cannot support a price.</p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${synthetic}
<dl>
${notes.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(String(value))}</dd>`).join('\n')}
</dl>
<h2>Findings</h2>
<p>${count((r) => r.flag === 'above')} rows above the comparables' 75th percentile, ${count((r) => r.flag === 'below')} below the 25th,
${count((r) => r.flag === 'within')} within; ${count((r) => r.flag === 'too few')} with too few comparables to judge.
Matches: ${count((r) => r.match === 'exact')} by exact title, ${count((r) => r.match === 'phrase')} broadened, ${count((r) => r.match === 'none')} none.</p>
<h2>Method</h2>
<p>${escapeHtml(methodWords(review.options))}</p>
<h2>Rows, in the list's order</h2>
<div class="rows">
<table>
<thead><tr>${HEADINGS.map(([text, cls]) => `<th scope="col"${cls ? ` class="${cls}"` : ''}>${text}</th>`).join('')}</tr></thead>
<tbody>
${review.rows.map(rowHtml).join('\n')}
</tbody>
</table>
</div>
<p>The rates each comparison (#) holds, with their contract, vendor, title, SIN, price, education and experience, are in the compared-rates CSV.</p>
</body>
</html>
`;
}
