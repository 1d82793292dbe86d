import { LitElement, html, css } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import { baseStyles, bareFieldsetStyles } from '../common/styles.ts';
import { formatCount, formatPrice } from '../common/format.ts';
import { choiceFieldset } from '../common/choice-fieldset.ts';
import { PRICE_FIELDS, type PriceField } from '../../state/rates-query.ts';
import type { PriceCheck } from '../../api/db-client.ts';
import { ordinal, signedPercent, YEAR_LABELS } from './figures-model.ts';

/**
 * The analyst's controls over the figures: which contract year's price they are computed on, and a
 * proposed price to check against the matches (its percentile rank and its distance from the median).
 */
@customElement('price-check')
export class PriceCheckPanel extends LitElement {
  static override styles = [
    baseStyles,
    bareFieldsetStyles,
    css`
      :host {
        display: block;
      }
      .row {
        display: flex;
        flex-wrap: wrap;
        gap: 0.75rem 1.5rem;
        align-items: end;
      }
      legend,
      label.head {
        display: block;
        font-weight: 600;
        font-size: 0.9rem;
        margin-bottom: 0.3rem;
        padding: 0;
      }
      .years {
        display: inline-flex;
        border: 1px solid var(--line-strong);
        border-radius: 6px;
        overflow: hidden;
      }
      .years label {
        padding: 0.3rem 0.65rem;
        cursor: pointer;
        font-size: 0.9rem;
        border-left: 1px solid var(--line-strong);
      }
      .years label:first-child {
        border-left: none;
      }
      .years label:has(input:checked) {
        background: var(--accent);
        color: #fff;
      }
      .years label:has(input:focus-visible) {
        outline: 3px solid var(--focus);
        outline-offset: -3px;
      }
      .years input {
        position: absolute;
        opacity: 0;
        width: 1px;
        height: 1px;
      }
      .proposed {
        display: flex;
        gap: 0.35rem;
        align-items: center;
      }
      .proposed input {
        width: 8rem;
      }
      .result {
        margin: 0.6rem 0 0;
        display: flex;
        flex-wrap: wrap;
        gap: 0.3rem 1.25rem;
        font-variant-numeric: tabular-nums;
      }
      .result strong {
        color: var(--proposed);
      }
    `,
  ];

  @property() year: PriceField = 'current_price';
  @property({ type: Number }) proposed: number | null = null;
  @property({ attribute: false }) check: PriceCheck | null = null;

  private emit(patch: { year?: PriceField; proposed?: number | null }): void {
    this.dispatchEvent(new PriceCheckChangeEvent(patch));
  }

  private onProposed(e: Event): void {
    const text = (e.target as HTMLInputElement).value.trim();
    const value = text === '' || !Number.isFinite(Number(text)) ? null : Number(text);
    if (value !== this.proposed) this.emit({ proposed: value });
  }

  private result() {
    const c = this.check;
    if (this.proposed === null) return html`<p class="result muted">Enter a proposed price to see where it falls among the matches.</p>`;
    if (!c) return html`<p class="result muted">Checking…</p>`;
    const yearWord = YEAR_LABELS[this.year].toLowerCase();
    if (c.percentileRank === null) return html`<p class="result muted" data-check="rank">No ${yearWord} prices to compare with.</p>`;
    return html`<p class="result" aria-live="polite">
      <span
        >Percentile rank <strong data-check="rank">${ordinal(c.percentileRank)}</strong>
        <span class="muted">(${formatCount(c.below)} below${c.equal ? `, ${formatCount(c.equal)} equal` : ''})</span></span
      >
      <span
        >Vs. median
        <strong data-check="difference">${c.difference === null ? '—' : `${c.difference >= 0 ? '+' : '−'}${formatPrice(Math.abs(c.difference))}`}</strong>
        <span data-check="percent">(${signedPercent(c.differencePercent)})</span></span
      >
    </p>`;
  }

  override render() {
    return html`<section class="card" aria-labelledby="check-h">
      <h2 id="check-h" class="visually-hidden">Price check</h2>
      <div class="row">
        ${choiceFieldset({
          legend: 'Contract year',
          className: 'years',
          type: 'radio',
          name: 'year',
          values: PRICE_FIELDS,
          label: (field) => YEAR_LABELS[field],
          checked: (field) => this.year === field,
          change: (field) => this.emit({ year: field }),
        })}
        <div>
          <label class="head" for="proposed">Proposed price (per hour)</label>
          <div class="proposed">
            <span aria-hidden="true">$</span>
            <input
              id="proposed"
              name="proposed_price"
              type="number"
              min="0"
              step="0.01"
              inputmode="decimal"
              placeholder="e.g. 125.00"
              .value=${live(this.proposed === null ? '' : String(this.proposed))}
              @change=${this.onProposed}
            />
          </div>
        </div>
      </div>
      ${this.result()}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'price-check': PriceCheckPanel;
  }
  interface HTMLElementEventMap {
    'price-check-change': PriceCheckChangeEvent;
  }
}

/** The contract year or the proposed price changed. */
export class PriceCheckChangeEvent extends Event {
  constructor(readonly patch: { year?: PriceField; proposed?: number | null }) {
    super('price-check-change', { bubbles: true, composed: true });
  }
}
