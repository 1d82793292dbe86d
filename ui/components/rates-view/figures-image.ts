/**
 * The figures as a picture an analyst can paste into a price memo: one self-contained SVG (title, the
 * query in words, the summary figures, the histogram with the median and the proposed price, the
 * percentiles), and the same drawn to a PNG. Colours are written out: the file carries no stylesheet.
 */
import { formatCount, formatPrice } from '../common/format.ts';
import { pricePosition } from './price-histogram-position.ts';
import { ordinal, YEAR_LABELS, type FiguresModel } from './figures-model.ts';

const W = 800;
const INK = '#1b1f24';
const MUTED = '#5b6470';
const ACCENT = '#005ea2';
const WARM = '#c05600';
const PROPOSED = '#6f2da8';

const escapeXml = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Words wrapped to lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

export function figuresSvg(m: FiguresModel, description: string, source: string): string {
  const out: string[] = [];
  const text = (x: number, y: number, content: string, attrs = '') => out.push(`<text x="${x}" y="${y}" ${attrs}>${escapeXml(content)}</text>`);
  let y = 30;
  text(20, y, `Ceiling rates: ${YEAR_LABELS[m.field].toLowerCase()} price`, `font-size="20" font-weight="700" fill="${INK}"`);
  for (const line of wrap(description, 105)) text(20, (y += 20), line, `font-size="13" fill="${MUTED}"`);
  y += 34;
  const stats: [string, string][] = [
    ['Rates', formatCount(m.count)],
    ['Average', formatPrice(m.avg)],
    ['Median', formatPrice(m.median)],
    ['Std. dev.', formatPrice(m.std)],
    ['Minimum', formatPrice(m.min)],
    ['Maximum', formatPrice(m.max)],
  ];
  stats.forEach(([label, value], i) => {
    text(20 + i * 128, y, label.toUpperCase(), `font-size="11" fill="${MUTED}"`);
    text(20 + i * 128, y + 22, value, `font-size="18" font-weight="650" fill="${INK}"`);
  });
  y += 44;
  const c = m.check;
  if (c && c.percentileRank !== null) {
    const diff = c.difference === null ? '' : `, ${c.difference >= 0 ? '+' : '−'}${formatPrice(Math.abs(c.difference))} from the median`;
    text(
      20,
      (y += 8),
      `Proposed price ${formatPrice(c.price)}: ${ordinal(c.percentileRank)} percentile rank${diff}`,
      `font-size="14" font-weight="600" fill="${PROPOSED}"`,
    );
    y += 10;
  }
  // The histogram.
  const top = y + 30;
  const plotH = 180;
  const left = 60;
  const plotW = W - left - 20;
  const buckets = m.histogram;
  const most = Math.max(1, ...buckets.map((b) => b.doc_count));
  const bw = buckets.length ? plotW / buckets.length : plotW;
  const x = (v: number) => left + pricePosition(buckets, v, bw);
  text(left - 8, top + 4, formatCount(most), `font-size="11" fill="${MUTED}" text-anchor="end"`);
  text(left - 8, top + plotH, '0', `font-size="11" fill="${MUTED}" text-anchor="end"`);
  buckets.forEach((b, i) => {
    const h = (b.doc_count / most) * plotH;
    out.push(`<rect x="${left + i * bw + 2}" y="${top + plotH - h}" width="${Math.max(bw - 4, 1)}" height="${h}" fill="${ACCENT}"/>`);
    text(left + i * bw + bw / 2, top + plotH + 15, `$${Math.round(b.min)}`, `font-size="11" fill="${MUTED}" text-anchor="middle"`);
    text(left + i * bw + bw / 2, top + plotH + 29, `–$${Math.round(b.max)}`, `font-size="11" fill="${MUTED}" text-anchor="middle"`);
  });
  if (m.median !== null && buckets.length) {
    out.push(`<line x1="${x(m.median)}" x2="${x(m.median)}" y1="${top - 8}" y2="${top + plotH}" stroke="${WARM}" stroke-width="2.5"/>`);
    text(x(m.median), top - 12, `median ${formatPrice(m.median)}`, `font-size="11" font-weight="600" fill="${INK}" text-anchor="middle"`);
  }
  if (m.check && buckets.length) {
    const px = Math.min(left + plotW, Math.max(left, x(m.check.price)));
    out.push(`<line x1="${px}" x2="${px}" y1="${top}" y2="${top + plotH}" stroke="${PROPOSED}" stroke-width="2.5" stroke-dasharray="6 3"/>`);
  }
  y = top + plotH + 56;
  const pcts = ['10.0', '25.0', '50.0', '75.0', '90.0'];
  text(20, y, 'Percentiles', `font-size="13" font-weight="600" fill="${INK}"`);
  pcts.forEach((k, i) => text(120 + i * 135, y, `${parseInt(k, 10)}th: ${formatPrice(m.percentiles[k] ?? null)}`, `font-size="13" fill="${INK}"`));
  y += 26;
  for (const line of wrap(source, 115)) {
    text(20, y, line, `font-size="11" fill="${MUTED}"`);
    y += 15;
  }
  const H = y + 10;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, sans-serif"><rect width="${W}" height="${H}" fill="#ffffff"/>${out.join('')}</svg>`;
}

/** The SVG drawn at twice its size to a PNG (a data: URL image: the page's CSP allows those). */
export async function svgToPng(svg: string): Promise<Uint8Array> {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth * 2;
  canvas.height = image.naturalHeight * 2;
  const context = canvas.getContext('2d')!;
  context.scale(2, 2);
  context.drawImage(image, 0, 0);
  const blob = await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be made'))), 'image/png'),
  );
  return new Uint8Array(await blob.arrayBuffer());
}
