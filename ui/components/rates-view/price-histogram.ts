import { LitElement, html, svg, css, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { baseStyles, chartStyles } from '../common/styles.ts';
import { BoxWidth } from '../common/box-width.ts';
import { formatCount, formatPrice } from '../common/format.ts';
import type { HistogramBucket } from '../../api/api-types.ts';

const WIDEST = 720;
const H = 230;
const PAD = { top: 26, right: 8, bottom: 40, left: 44 };

import { pricePosition } from './price-histogram-position.ts';

/** The price histogram from `wage_histogram`, with the median and the mean ± 1 standard deviation marked. */
@customElement('price-histogram')
export class PriceHistogram extends LitElement {
  static override styles = [
    baseStyles,
    chartStyles,
    css`
      .bar {
        fill: var(--accent);
      }
      .bar:hover {
        fill: var(--accent-dark);
      }
      .median {
        stroke: var(--warm);
        stroke-width: 2.5;
      }
      .sd {
        fill: var(--warm);
        opacity: 0.13;
      }
      .sd-edge {
        stroke: var(--warm);
        stroke-dasharray: 4 3;
        stroke-width: 1.5;
      }
      .proposed {
        stroke: var(--proposed);
        stroke-width: 2.5;
        stroke-dasharray: 6 3;
      }
      .proposed-label {
        font-size: 11px;
        font-weight: 600;
        fill: var(--proposed);
        /* Legible where the median's line crosses it. */
        paint-order: stroke;
        stroke: var(--surface);
        stroke-width: 3px;
      }
      .label {
        font-size: 11px;
        fill: var(--ink);
        font-weight: 600;
      }
      .legend {
        display: flex;
        gap: 1rem;
        flex-wrap: wrap;
        font-size: 0.85rem;
        margin-top: 0.25rem;
      }
      .swatch {
        display: inline-block;
        width: 0.9rem;
        height: 0.6rem;
        margin-right: 0.3rem;
        vertical-align: middle;
      }
    `,
  ];

  @property({ attribute: false }) buckets: HistogramBucket[] = [];
  @property({ type: Number }) median: number | null = null;
  @property({ type: Number }) mean: number | null = null;
  @property({ type: Number }) std: number | null = null;
  /** A proposed price to mark, when one is being checked. */
  @property({ type: Number }) proposed: number | null = null;
  private readonly box = new BoxWidth(this, 300, WIDEST);

  override render() {
    const buckets = this.buckets;
    if (!buckets.length) return html`<p class="muted">No prices to chart.</p>`;
    const W = this.box.width;
    const plotW = W - PAD.left - PAD.right;
    // A proposed price takes a second label line above the plot, under the median's.
    const top = this.proposed !== null ? PAD.top + 16 : PAD.top;
    const plotH = H - top - PAD.bottom;
    const bw = plotW / buckets.length;
    const most = Math.max(...buckets.map((b) => b.doc_count), 1);
    const y = (n: number) => top + plotH - (n / most) * plotH;
    const x = (v: number) => PAD.left + pricePosition(buckets, v, bw);
    const { median, mean, std, proposed } = this;
    // A label per bar needs about 40 px; narrower bars (a phone) label every second or third bar only.
    const labelEvery = Math.max(1, Math.ceil(40 / bw));
    // Labels centred on their line, held inside the drawing.
    const labelX = (at: number) => Math.min(W - PAD.right - 40, Math.max(PAD.left + 40, at));
    const px = proposed === null ? null : Math.min(PAD.left + plotW, Math.max(PAD.left, x(proposed)));
    const sdLo = mean !== null && std !== null ? x(mean - std) : null;
    const sdHi = mean !== null && std !== null ? x(mean + std) : null;
    const desc = buckets.map((b) => `${formatPrice(b.min)} to ${formatPrice(b.max)}: ${formatCount(b.doc_count)}`).join('; ');
    return html`<svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="h-title h-desc">
        <title id="h-title">Price histogram</title>
        <desc id="h-desc">
          Number of rates per price range: ${desc}. Median ${formatPrice(median)}; mean ${formatPrice(mean)}, standard deviation
          ${formatPrice(std)}.${proposed !== null ? ` Proposed price ${formatPrice(proposed)}.` : ''}
        </desc>
        ${
          sdLo !== null && sdHi !== null
            ? svg`<rect class="sd" x=${sdLo} y=${top} width=${Math.max(sdHi - sdLo, 1)} height=${plotH}></rect>
              <line class="sd-edge" x1=${sdLo} x2=${sdLo} y1=${top} y2=${top + plotH}></line>
              <line class="sd-edge" x1=${sdHi} x2=${sdHi} y1=${top} y2=${top + plotH}></line>`
            : nothing
        }
        ${svg`<text class="axis" x=${PAD.left - 6} y=${top + 4} text-anchor="end">${formatCount(most)}</text>
          <text class="axis" x=${PAD.left - 6} y=${top + plotH} text-anchor="end">0</text>`}
        ${buckets.map((b, i) => {
          const bx = PAD.left + i * bw;
          return svg`<rect class="bar" x=${bx + 2} y=${y(b.doc_count)} width=${Math.max(bw - 4, 1)} height=${top + plotH - y(b.doc_count)}>
              <title>${formatPrice(b.min)} – ${formatPrice(b.max)}: ${formatCount(b.doc_count)} rates</title>
            </rect>
            ${
              i % labelEvery === 0
                ? svg`<text class="axis" x=${bx + bw / 2} y=${H - PAD.bottom + 15} text-anchor="middle">${shortPrice(b.min)}</text>`
                : nothing
            }
            ${bw >= 44 ? svg`<text class="axis" x=${bx + bw / 2} y=${H - PAD.bottom + 29} text-anchor="middle">–${shortPrice(b.max)}</text>` : nothing}`;
        })}
        ${
          median !== null
            ? svg`<line class="median" x1=${x(median)} x2=${x(median)} y1=${PAD.top - 6} y2=${top + plotH}></line>
              <text class="label" x=${labelX(x(median))} y=${PAD.top - 10} text-anchor="middle">median ${shortPrice(median)}</text>`
            : nothing
        }
        ${
          px !== null
            ? svg`<line class="proposed" data-marker="proposed" x1=${px} x2=${px} y1=${top - 6} y2=${top + plotH}></line>
              <text class="proposed-label" x=${labelX(px)} y=${top - 9} text-anchor="middle">proposed ${shortPrice(proposed!)}</text>`
            : nothing
        }
      </svg>
      <div class="legend" aria-hidden="true">
        <span><span class="swatch" style="background: var(--accent)"></span>Rates per price range</span>
        <span><span class="swatch" style="background: var(--warm)"></span>Median</span>
        <span><span class="swatch" style="background: var(--warm); opacity: 0.3"></span>Mean ± 1 std. dev.</span>
        ${proposed !== null ? html`<span><span class="swatch" style="background: var(--proposed)"></span>Proposed price</span>` : nothing}
      </div>`;
  }
}

function shortPrice(v: number): string {
  return v >= 1000 ? `$${(v / 1000).toFixed(v >= 10_000 ? 0 : 1)}k` : `$${Math.round(v)}`;
}

declare global {
  interface HTMLElementTagNameMap {
    'price-histogram': PriceHistogram;
  }
}
