import { LitElement, html, svg, css, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { baseStyles, statStyles } from '../common/styles.ts';
import { formatCount, formatPrice } from '../common/format.ts';
import { YEAR_LABELS, type FiguresModel } from './figures-model.ts';
import './price-histogram.ts';

const PERCENTILES = ['10.0', '25.0', '50.0', '75.0', '90.0'] as const;

/**
 * Summary figures, the price histogram and the percentile band for the current query, over the chosen
 * contract year's price, with the proposed price marked on both charts.
 */
@customElement('rates-figures')
export class RatesFigures extends LitElement {
  static override styles = [
    baseStyles,
    statStyles,
    css`
      .stats {
        display: grid;
        grid-template-columns: repeat(6, minmax(0, 1fr));
        gap: 0.5rem;
        margin: 0;
      }
      .charts {
        display: grid;
        grid-template-columns: minmax(0, 2fr) minmax(0, 1fr);
        gap: 0.75rem;
        margin-top: 0.75rem;
      }
      .band svg {
        width: 100%;
        max-height: 3.5rem;
        height: auto;
        display: block;
        margin: 0.5rem 0;
      }
      .band .whisker {
        stroke: var(--ink);
        stroke-width: 2;
      }
      .band .box {
        fill: var(--accent-soft);
        stroke: var(--accent);
        stroke-width: 1.5;
      }
      .band .mid {
        stroke: var(--warm);
        stroke-width: 3;
      }
      .band .proposed {
        fill: var(--proposed);
      }
      .band dl {
        display: grid;
        grid-template-columns: auto 1fr;
        gap: 0.2rem 0.75rem;
        margin: 0;
        font-variant-numeric: tabular-nums;
      }
      .band dt {
        color: var(--muted);
      }
      .band dd {
        margin: 0;
        text-align: right;
      }
      h2 {
        margin-bottom: 0.4rem;
      }
      @media (max-width: 900px) {
        .stats {
          grid-template-columns: repeat(3, minmax(0, 1fr));
        }
        .charts {
          grid-template-columns: 1fr;
        }
      }
      @media (max-width: 480px) {
        .stats {
          grid-template-columns: repeat(2, minmax(0, 1fr));
        }
        .stat dd {
          font-size: 1.1rem;
        }
      }
    `,
  ];

  @property({ attribute: false }) model: FiguresModel | null = null;

  private band(values: Record<string, number | null>, proposed: number | null) {
    const v = PERCENTILES.map((k) => values[k]);
    if (v.some((n) => n === null || n === undefined)) return nothing;
    const [p10, p25, p50, p75, p90] = v as number[];
    const span = p90 - p10 || 1;
    const x = (n: number) => 10 + ((n - p10) / span) * 280;
    // A proposed price outside the band sits at its edge, pointing out of it.
    const px = proposed === null ? null : Math.min(296, Math.max(4, x(proposed)));
    return svg`<svg viewBox="0 0 300 40" aria-hidden="true">
      ${
        px === null
          ? nothing
          : svg`<path class="proposed" data-marker="band-proposed" d="M${px - 5} 0 L${px + 5} 0 L${px} 9 Z"></path>
        <path class="proposed" d="M${px - 5} 40 L${px + 5} 40 L${px} 31 Z"></path>`
      }
      <line class="whisker" x1=${x(p10)} x2=${x(p90)} y1="20" y2="20"></line>
      <line class="whisker" x1=${x(p10)} x2=${x(p10)} y1="12" y2="28"></line>
      <line class="whisker" x1=${x(p90)} x2=${x(p90)} y1="12" y2="28"></line>
      <rect class="box" x=${x(p25)} y="8" width=${Math.max(x(p75) - x(p25), 1)} height="24" rx="3"></rect>
      <line class="mid" x1=${x(p50)} x2=${x(p50)} y1="6" y2="34"></line>
    </svg>`;
  }

  override render() {
    const m = this.model;
    if (!m) return nothing;
    const year = m.field === 'current_price' ? '' : ` (${YEAR_LABELS[m.field].toLowerCase()} price)`;
    const proposed = m.check?.price ?? null;
    return html`<dl class="stats" aria-label="Summary of matching rates${year}" data-year=${m.field}>
        <div class="stat">
          <dt>${m.count < m.matches ? `Priced (of ${formatCount(m.matches)})` : 'Rates'}</dt>
          <dd data-figure="count">${formatCount(m.count)}</dd></div>
        <div class="stat"><dt>Average</dt><dd data-figure="avg">${formatPrice(m.avg)}</dd></div>
        <div class="stat"><dt>Median</dt><dd data-figure="median">${formatPrice(m.median)}</dd></div>
        <div class="stat"><dt>Std. dev.</dt><dd data-figure="std">${formatPrice(m.std)}</dd></div>
        <div class="stat"><dt>Minimum</dt><dd data-figure="min">${formatPrice(m.min)}</dd></div>
        <div class="stat"><dt>Maximum</dt><dd data-figure="max">${formatPrice(m.max)}</dd></div>
      </dl>
      <div class="charts">
        <section class="card" aria-labelledby="hist-h">
          <h2 id="hist-h">Price distribution${year}</h2>
          <price-histogram .buckets=${m.histogram} .median=${m.median} .mean=${m.avg} .std=${m.std} .proposed=${proposed}></price-histogram>
        </section>
        <section class="card band" aria-labelledby="band-h">
          <h2 id="band-h">Percentile band${year}</h2>
          ${this.band(m.percentiles, proposed)}
          <dl>
            ${PERCENTILES.map(
              (k) => html`<dt>${parseInt(k, 10)}th percentile</dt>
                <dd data-percentile=${k}>${formatPrice(m.percentiles[k] ?? null)}</dd>`,
            )}
          </dl>
        </section>
      </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'rates-figures': RatesFigures;
  }
}
