import { LitElement, html, svg, css, nothing, unsafeCSS } from 'lit';
import { styleMap } from 'lit/directives/style-map.js';
import { customElement, property } from 'lit/decorators.js';
import { baseStyles, chartStyles } from '../common/styles.ts';
import { BoxWidth } from '../common/box-width.ts';

/** One line: a name and a value per date (null where there is none, a gap in the line). */
export interface ChartLine {
  name: string;
  values: (number | null)[];
  /** The sum over every group: drawn dashed in ink, under the groups' colours. */
  total?: boolean;
}

/** Line colours that keep 3:1 against white and stay apart for the common colour-vision deficiencies. */
export const LINE_COLOURS = ['#0072b2', '#d55e00', '#007d5c', '#b8307f', '#8a6d00', '#3f51b5', '#6f2da8', '#5b6470'];
const TOTAL_COLOUR = '#1b1f24';

const WIDEST = 1200;
const H = 260;
const PAD = { top: 16, right: 12, bottom: 34, left: 48 };

/** A round step for the vertical axis: 1, 2 or 5 times a power of ten, about four steps to the top. */
function niceStep(top: number): number {
  const raw = top / 4;
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? power * 10;
}

/** A month and day for the axis (the dates are days, read in UTC like the scans'). */
const shortDay = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * Lines over the weeks, drawn by hand in SVG at the width of its box (text stays legible on a phone). Values are
 * percentages (0–100 axis) or counts (axis from 0 to a round step above the largest). The numbers are in the table
 * beside it; the drawing is one image to a screen reader.
 */
@customElement('trend-chart')
export class TrendChart extends LitElement {
  static override styles = [
    baseStyles,
    chartStyles,
    css`
      .grid {
        stroke: var(--line);
        stroke-width: 1;
      }
      .partial line {
        stroke: var(--warm, #8a4b00);
        stroke-width: 1.5;
        stroke-dasharray: 3 3;
      }
      .partial text {
        fill: var(--warm, #8a4b00);
        font-size: 11px;
      }
      .legend {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 1rem;
        list-style: none;
        margin: 0.35rem 0 0;
        padding: 0;
        font-size: 0.85rem;
      }
      .swatch {
        display: inline-block;
        width: 1.1rem;
        height: 0.2rem;
        margin-right: 0.35rem;
        vertical-align: middle;
      }
      .swatch.total {
        background: repeating-linear-gradient(90deg, ${unsafeCSS(TOTAL_COLOUR)} 0 5px, transparent 5px 8px) !important;
      }
    `,
  ];

  @property({ attribute: false }) dates: string[] = [];
  @property({ attribute: false }) lines: ChartLine[] = [];
  /** Percentages: the axis runs 0 to 100. */
  @property({ type: Boolean }) percent = false;
  /** What the lines measure, for the image's name. */
  @property() label = '';
  /** The dates whose list is known to be incomplete: marked on the drawing and said in its name. */
  @property({ attribute: false }) partial: string[] = [];
  private readonly box = new BoxWidth(this, 280, WIDEST);

  override render() {
    const { dates, lines } = this;
    if (dates.length === 0 || lines.length === 0) return html`<p class="muted">Nothing to draw.</p>`;
    const W = this.box.width;
    const plotW = W - PAD.left - PAD.right;
    const plotH = H - PAD.top - PAD.bottom;
    const most = Math.max(0, ...lines.flatMap((l) => l.values.filter((v): v is number => v !== null)));
    // Shares that stay low (most DAP trends sit under 40 %) get the room: the axis stops at a round step above them.
    const step = this.percent ? (most > 50 ? 25 : most > 20 ? 10 : 5) : niceStep(most);
    const top = Math.min(this.percent ? 100 : Infinity, Math.max(step, Math.ceil(most / step) * step));
    // Placed by date, not by index: a week missing from the list (2025-03-10) leaves its gap.
    const days = dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 86_400_000);
    const span = days[days.length - 1] - days[0];
    const x = (i: number) => PAD.left + (span > 0 ? ((days[i] - days[0]) / span) * plotW : plotW / 2);
    const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
    const ticks: number[] = [];
    for (let t = 0; t <= top + 1e-9; t += step) ticks.push(t);
    // A date label takes about 48 px: labels are placed left to right when clear of the one before and of the last
    // (the first and last are anchored at their ends, so their middles sit half a label inwards).
    const last = dates.length - 1;
    const middle = (i: number) => (i === 0 && last > 0 ? x(0) + 24 : i === last && last > 0 ? x(last) - 24 : x(i));
    const labelled = new Set<number>([last]);
    let previous = -Infinity;
    for (let i = 0; i < last; i++) {
      if (middle(i) - previous >= 52 && middle(last) - middle(i) >= 52) {
        labelled.add(i);
        previous = middle(i);
      }
    }
    const colour = (line: ChartLine, i: number) => (line.total ? TOTAL_COLOUR : LINE_COLOURS[i % LINE_COLOURS.length]);
    const path = (values: (number | null)[]) => {
      let d = '';
      let pen = false;
      values.forEach((v, i) => {
        if (v === null) pen = false;
        else {
          d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
          pen = true;
        }
      });
      return d;
    };
    const coloured = lines.map((line, i) => ({ line, colour: colour(line, line.total ? 0 : i - (lines[0]?.total ? 1 : 0)) }));
    const partial = dates.flatMap((d, i) => (this.partial.includes(d) ? [i] : []));
    const partialWords = partial.length ? ` ${partial.map((i) => dates[i]).join(', ')} is a partial week.` : '';
    return html`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${this.label}: ${lines.map((l) => l.name).join(', ')}, ${dates[0]} to ${dates.at(-1)}.${partialWords} The numbers are in the table below.">
        ${partial.map(
          (i) => svg`<g class="partial" data-partial=${dates[i]}>
            <line x1=${x(i)} x2=${x(i)} y1=${PAD.top} y2=${PAD.top + plotH}></line>
            <text x=${x(i) + (i === 0 ? 4 : -4)} y=${PAD.top + 10} text-anchor=${i === 0 ? 'start' : 'end'}>partial week</text>
          </g>`,
        )}
        ${ticks.map(
          (t) => svg`<line class="grid" x1=${PAD.left} x2=${W - PAD.right} y1=${y(t)} y2=${y(t)}></line>
            <text class="axis" x=${PAD.left - 6} y=${y(t) + 4} text-anchor="end">${this.percent ? `${t}%` : t.toLocaleString('en-US')}</text>`,
        )}
        ${dates.map((d, i) =>
          labelled.has(i)
            ? svg`<text class="axis" x=${x(i)} y=${H - PAD.bottom + 16} text-anchor=${i === 0 ? 'start' : i === dates.length - 1 ? 'end' : 'middle'}>${shortDay(d)}</text>`
            : nothing,
        )}
        <text class="axis" x=${W - PAD.right} y=${H - 4} text-anchor="end">${dates.at(-1)?.slice(0, 4) === dates[0].slice(0, 4) ? dates[0].slice(0, 4) : `${dates[0].slice(0, 4)}–${dates.at(-1)?.slice(0, 4)}`}</text>
        ${coloured.map(
          ({ line, colour }) => svg`<g data-line=${line.name}>
            <path d=${path(line.values)} fill="none" stroke=${colour} stroke-width=${line.total ? 2 : 2.5} stroke-dasharray=${line.total ? '6 4' : nothing} stroke-linejoin="round"></path>
            ${line.values.map((v, i) => (v === null ? nothing : svg`<circle cx=${x(i)} cy=${y(v)} r="3" fill=${colour}><title>${line.name}, ${dates[i]}: ${this.percent ? `${v.toFixed(1)}%` : v.toLocaleString('en-US')}</title></circle>`))}
          </g>`,
        )}
      </svg>
      <ul class="legend" aria-hidden="true">
        ${coloured.map(
          ({ line, colour }) => html`<li><span class="swatch ${line.total ? 'total' : ''}" style=${styleMap({ background: colour })}></span>${line.name}</li>`,
        )}
      </ul>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'trend-chart': TrendChart;
  }
}
