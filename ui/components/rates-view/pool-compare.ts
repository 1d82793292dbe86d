import { LitElement, html, svg, css, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { baseStyles, chartStyles } from '../common/styles.ts';
import { formatCount, formatPrice } from '../common/format.ts';
import { commonBins, type Pool } from './pool-bins.ts';
import { ordinal, signedPercent } from './figures-model.ts';

export type { Pool } from './pool-bins.ts';

/** A pin removed from the comparison. */
export class UnpinEvent extends Event {
  constructor(readonly pin: string) {
    super('unpin', { bubbles: true, composed: true });
  }
}

/** Series colours and dashes: told apart by both, for readers who do not see the colours. */
const SERIES = [
  { color: 'var(--accent)', dash: '' },
  { color: 'var(--warm)', dash: '6 3' },
  { color: 'var(--proposed)', dash: '2 2' },
  { color: 'var(--ok)', dash: '10 3 2 3' },
];

const ROWS: [string, (p: Pool) => string][] = [
  ['Rates', (p) => formatCount(p.model?.count)],
  ['Average', (p) => formatPrice(p.model?.avg)],
  ['Median', (p) => formatPrice(p.model?.median)],
  ['Std. dev.', (p) => formatPrice(p.model?.std)],
  ['Minimum', (p) => formatPrice(p.model?.min)],
  ['10th percentile', (p) => formatPrice(p.model?.percentiles['10.0'])],
  ['25th percentile', (p) => formatPrice(p.model?.percentiles['25.0'])],
  ['75th percentile', (p) => formatPrice(p.model?.percentiles['75.0'])],
  ['90th percentile', (p) => formatPrice(p.model?.percentiles['90.0'])],
  ['Maximum', (p) => formatPrice(p.model?.max)],
];

/** A signed dollar amount: +$12.50, −$3.00. */
const signedPrice = (n: number): string => `${n > 0 ? '+' : n < 0 ? '−' : ''}${formatPrice(Math.abs(n))}`;

/** Each pool's median against the first pool's (this query): the difference an analyst reads first. */
function medianDifference(pool: Pool, first: Pool): string {
  const [m, base] = [pool.model?.median ?? null, first.model?.median ?? null];
  if (pool === first) return 'baseline';
  if (m === null || base === null) return '—';
  return `${signedPrice(m - base)} (${signedPercent(base ? ((m - base) / base) * 100 : null)})`;
}

/** The proposed price in each pool: its percentile rank there and its distance from that pool's median. */
function proposedCheck(pool: Pool): string {
  const c = pool.model?.check;
  if (!c || c.percentileRank === null || c.difference === null) return '—';
  return `${ordinal(c.percentileRank)} percentile, ${signedPrice(c.difference)} (${signedPercent(c.differencePercent)}) from the median`;
}

const W = 720;
const H = 200;
const PAD = { top: 12, right: 10, bottom: 30, left: 44 };

/**
 * Pinned queries beside the current one: their figures side by side and their histograms overlaid on one
 * price axis (each pool's share of its rates per price band, so pools of different sizes compare).
 */
@customElement('pool-compare')
export class PoolCompare extends LitElement {
  static override styles = [
    baseStyles,
    chartStyles,
    css`
      .wrap {
        overflow-x: auto;
      }
      table {
        border-collapse: collapse;
        width: 100%;
        font-variant-numeric: tabular-nums;
        font-size: 0.9rem;
      }
      th,
      td {
        padding: 0.3rem 0.5rem;
        border-bottom: 1px solid var(--line);
        text-align: right;
        vertical-align: top;
      }
      th[scope='row'] {
        text-align: left;
        color: var(--muted);
        font-weight: 400;
        white-space: nowrap;
      }
      thead th {
        font-weight: 600;
        min-width: 9rem;
      }
      .key {
        display: inline-block;
        width: 1.4rem;
        height: 0;
        border-top: 3px solid;
        vertical-align: middle;
        margin-right: 0.3rem;
      }
      .label {
        display: block;
        font-weight: 400;
        font-size: 0.8rem;
        color: var(--muted);
        overflow-wrap: anywhere;
      }
      th button {
        font-size: 0.8rem;
        margin-top: 0.25rem;
      }
      svg {
        /* Legible on a phone: the chart then scrolls sideways in its box. */
        min-width: 540px;
      }
      .chart {
        overflow-x: auto;
        margin-top: 0.75rem;
      }
      .series {
        fill: none;
        stroke-width: 2.5;
      }
    `,
  ];

  @property({ attribute: false }) pools: Pool[] = [];

  private chart() {
    const { bins, top } = commonBins(this.pools);
    if (!bins) return nothing;
    const plotW = W - PAD.left - PAD.right;
    const plotH = H - PAD.top - PAD.bottom;
    const x = (v: number) => PAD.left + ((v - bins.lo) / (bins.hi - bins.lo || 1)) * plotW;
    const y = (share: number) => PAD.top + plotH - (share / (top || 1)) * plotH;
    const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => bins.lo + t * (bins.hi - bins.lo));
    const describe = this.pools.map((p) => `${p.title}: median ${formatPrice(p.model?.median)}`).join('; ');
    return svg`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="Price distributions overlaid, share of each pool's rates per price band. ${describe}">
      <text class="axis" x=${PAD.left - 6} y=${PAD.top + 8} text-anchor="end">${Math.round(top * 100)}%</text>
      <text class="axis" x=${PAD.left - 6} y=${PAD.top + plotH} text-anchor="end">0</text>
      <line x1=${PAD.left} x2=${PAD.left + plotW} y1=${PAD.top + plotH} y2=${PAD.top + plotH} stroke="var(--line-strong)"></line>
      ${ticks.map((t, i) => svg`<text class="axis" x=${x(t)} y=${H - 10} text-anchor=${i === 0 ? 'start' : i === ticks.length - 1 ? 'end' : 'middle'}>$${Math.round(t)}${i === ticks.length - 1 ? '+' : ''}</text>`)}
      ${this.pools.map((pool, i) => {
        const shares = bins.shares[i];
        if (!shares) return nothing;
        const points: string[] = [`${x(bins.lo)},${y(0)}`];
        shares.forEach((share, b) => {
          points.push(`${x(bins.edges[b])},${y(share)}`, `${x(bins.edges[b + 1])},${y(share)}`);
        });
        points.push(`${x(bins.hi)},${y(0)}`);
        const s = SERIES[i % SERIES.length];
        return svg`<polyline class="series" data-series=${i} points=${points.join(' ')} stroke=${s.color} stroke-dasharray=${s.dash || nothing}></polyline>`;
      })}
    </svg>`;
  }

  /** The figures, the medians' difference, and the proposed price's check when one is set. */
  private rows(): [string, (p: Pool) => string][] {
    const first = this.pools[0];
    const rows: [string, (p: Pool) => string][] = [...ROWS, ['Median vs this query', (p) => medianDifference(p, first)]];
    if (this.pools.some((p) => p.model?.check))
      rows.push([`Proposed ${formatPrice(this.pools.find((p) => p.model?.check)!.model!.check!.price)}`, proposedCheck]);
    return rows;
  }

  override render() {
    if (this.pools.length < 2) return nothing;
    return html`<section class="card" aria-labelledby="compare-h">
      <h2 id="compare-h">Compared pools</h2>
      <div class="wrap" tabindex="0" role="region" aria-label="Figures of the compared pools">
        <table id="compare-table">
          <caption class="visually-hidden">Figures of each pool side by side</caption>
          <thead>
            <tr>
              <td></td>
              ${this.pools.map((p, i) => {
                const s = SERIES[i % SERIES.length];
                return html`<th scope="col" data-pool=${i}>
                  <span class="key" style="border-top-color: ${s.color}; border-top-style: ${s.dash ? 'dashed' : 'solid'}" aria-hidden="true"></span>${p.title}
                  <span class="label">${p.description}</span>
                  ${p.pin ? html`<button type="button" @click=${() => this.dispatchEvent(new UnpinEvent(p.pin!))}>Unpin</button>` : nothing}
                </th>`;
              })}
            </tr>
          </thead>
          <tbody>
            ${this.rows().map(
              ([label, value]) => html`<tr>
                <th scope="row">${label}</th>
                ${this.pools.map((p, i) => html`<td data-pool=${i} data-row=${label}>${p.model ? value(p) : '…'}</td>`)}
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      <div class="chart" tabindex="0" role="region" aria-label="Price distributions overlaid">${this.chart()}</div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pool-compare': PoolCompare;
  }
  interface HTMLElementEventMap {
    unpin: UnpinEvent;
  }
}
