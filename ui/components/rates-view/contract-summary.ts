import { LitElement, html, css, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import type { RateRecord } from '../../api/api-types.ts';
import { baseStyles, factPairStyles } from '../common/styles.ts';
import { formatCount, formatPrice } from '../common/format.ts';

const SIZE_WORDS: Record<string, string> = { S: 'small business', O: 'other than small' };

/**
 * The summary of one contract's price list, above its rates (the rates view under `search=idv_piid:…`, where each
 * rate's contract links to): the contract number, vendor, the list's date (the records' `_timestamp`, which GSA's
 * 2025 lists set to the list's generation time), business size, the contract's dates, and how many rates it has.
 */
@customElement('contract-summary')
export class ContractSummary extends LitElement {
  static override styles = [
    baseStyles,
    factPairStyles,
    css`
      h2 {
        margin: 0 0 0.35rem;
        font-size: 1.05rem;
      }
      dl {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 1.25rem;
        margin: 0;
      }
    `,
  ];

  /** One of the contract's rates (they share these fields). */
  @property({ attribute: false }) record: RateRecord | null = null;
  @property({ type: Number }) count = 0;
  @property({ attribute: false }) median: number | null = null;

  override render() {
    const r = this.record;
    if (!r) return nothing;
    const day = (text: string | null | undefined) => (text ? text.slice(0, 10) : '—');
    return html`<section class="card" aria-labelledby="contract-h" id="contract-summary">
      <h2 id="contract-h">Price list of ${r.idv_piid}: ${r.vendor_name}</h2>
      <dl>
        <div><dt>Contract</dt><dd>${r.idv_piid}</dd></div>
        <div><dt>Vendor</dt><dd>${r.vendor_name}</dd></div>
        <div><dt title="The records' date: the price list's generation date in GSA's 2025 lists">List date</dt><dd id="contract-list-date">${day(r._timestamp)}</dd></div>
        <div><dt>Size</dt><dd>${SIZE_WORDS[r.business_size] ?? (r.business_size || '—')}</dd></div>
        <div><dt>Schedule</dt><dd>${r.schedule || '—'}</dd></div>
        <div><dt>Contract period</dt><dd>${day(r.contract_start)} to ${day(r.contract_end)}</dd></div>
        <div><dt>Rates</dt><dd id="contract-rates">${formatCount(this.count)}</dd></div>
        <div><dt>Median</dt><dd>${formatPrice(this.median)}</dd></div>
      </dl>
      <p class="muted">Its rates are listed below; search again to leave the list.</p>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'contract-summary': ContractSummary;
  }
}
