import { LitElement, html, css, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { baseStyles } from '../common/styles.ts';
import { formatPrice } from '../common/format.ts';
import { escalation, formatEscalation } from './figures-model.ts';
import type { RateHit, RateRecord } from '../../api/api-types.ts';
import { toggleOrdering, type Ordering, type SortField } from '../../state/rates-query.ts';
import { contractHash } from '../../state/contract-link.ts';

interface Column {
  /** A record field, or `escalation` (next year's price ÷ the current one, computed here). */
  key: keyof RateRecord | 'escalation';
  label: string;
  sort?: SortField;
  /** A second field shown and sorted in the same column, under the first (vendor / contract, education / years). */
  second?: { key: keyof RateRecord; label: string; sort: SortField };
  numeric?: boolean;
  /** Hidden on a phone, where the labor-category cell carries a one-line summary instead. */
  wideOnly?: boolean;
  format?: (r: RateRecord) => string;
}

/**
 * Twelve fields in ten columns, so that the table (Exclude included) fits the results column at 1280 px: two
 * pairs share a column, the second field under the first, each sortable on its own.
 */
export const RATE_COLUMNS: readonly Column[] = [
  { key: 'labor_category', label: 'Labor category', sort: 'labor_category' },
  {
    key: 'education_level',
    label: 'Edu.',
    sort: 'education_level',
    wideOnly: true,
    second: { key: 'min_years_experience', label: 'Yrs', sort: 'min_years_experience' },
  },
  { key: 'vendor_name', label: 'Vendor', sort: 'vendor_name', wideOnly: true, second: { key: 'idv_piid', label: 'Contract', sort: 'idv_piid' } },
  // A rate under several SINs lists them with commas: spaced here, so the cell wraps between codes.
  { key: 'sin', label: 'SIN', wideOnly: true, format: (r) => (r.sin ? r.sin.split(/\s*[,;]\s*/).join(', ') : '—') },
  { key: 'schedule', label: 'Sched.', sort: 'schedule', wideOnly: true, second: { key: 'business_size', label: 'Size', sort: 'business_size' } },
  { key: 'worksite', label: 'Worksite', wideOnly: true },
  { key: 'current_price', label: 'Price', sort: 'current_price', numeric: true, format: (r) => formatPrice(r.current_price) },
  { key: 'next_year_price', label: 'Next yr', sort: 'next_year_price', numeric: true, wideOnly: true, format: (r) => formatPrice(r.next_year_price) },
  { key: 'second_year_price', label: '2nd yr', sort: 'second_year_price', numeric: true, wideOnly: true, format: (r) => formatPrice(r.second_year_price) },
  { key: 'escalation', label: 'Esc.', numeric: true, wideOnly: true, format: (r) => formatEscalation(escalation(r)) },
];

export const SORT_LABELS: Record<SortField, string> = {
  current_price: 'Price',
  next_year_price: 'Next year price',
  second_year_price: 'Second year price',
  labor_category: 'Labor category',
  vendor_name: 'Vendor',
  idv_piid: 'Contract',
  education_level: 'Education',
  min_years_experience: 'Min. years of experience',
  schedule: 'Schedule',
  business_size: 'Size',
};

export class OrderingChangeEvent extends Event {
  constructor(readonly ordering: Ordering[]) {
    super('ordering-change', { bubbles: true, composed: true });
  }
}

export class ExcludeRowEvent extends Event {
  constructor(readonly id: string) {
    super('exclude-row', { bubbles: true, composed: true });
  }
}

/** New rows drawn in the first render that shows them (see `shownRows`). */
const FIRST_NEW_ROWS = 10;

/**
 * The results table. A column heading sorts by that column alone (again: reverses it); Shift+click, or
 * the "then by" picker, adds a further ordering. Each row can be excluded from the whole result.
 */
@customElement('rates-table')
export class RatesTable extends LitElement {
  static override styles = [
    baseStyles,
    css`
      .table-wrap {
        max-height: 70vh;
        overflow: auto;
        /* Row changes relayout and repaint this box only. */
        contain: content;
        /*
         * Below the fold when the view opens (under the search, filters and figures): its rows are laid out
         * once it nears the viewport, not in the first frame (the opening's style and layout took about 150 ms
         * with them; the first answer came about 130 ms sooner without).
         */
        content-visibility: auto;
        contain-intrinsic-size: auto 70vh;
      }
      th button {
        all: unset;
        cursor: pointer;
        display: inline-flex;
        gap: 0.25rem;
        align-items: center;
        white-space: nowrap;
      }
      th button:focus-visible {
        outline: 3px solid var(--focus);
      }
      th.num button {
        justify-content: flex-end;
      }
      .arrow {
        font-size: 0.75rem;
        color: var(--accent);
      }
      .rank {
        font-size: 0.65rem;
        vertical-align: super;
      }
      table {
        font-size: 0.8rem;
      }
      th,
      td {
        padding: 0.3rem 0.35rem;
      }
      td.labor {
        min-width: 9rem;
        font-weight: 500;
      }
      td.vendor {
        min-width: 8rem;
      }
      td[data-col='sin'] {
        max-width: 6.5rem;
        overflow-wrap: break-word;
      }
      .second {
        display: block;
        color: var(--muted);
      }
      td.num {
        white-space: nowrap;
      }
      .contract {
        display: block;
        width: fit-content;
        font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
        font-size: 0.78rem;
      }
      .sub {
        display: none;
        font-weight: 400;
        color: var(--muted);
        font-size: 0.8rem;
      }
      @media (max-width: 600px) {
        .wide-only {
          display: none;
        }
        .sub {
          display: block;
        }
        td.labor {
          min-width: 0;
        }
      }
      td.action {
        width: 1%;
      }
      .exclude {
        min-height: 0;
        padding: 0.05rem 0.45rem;
        font-size: 0.8rem;
        color: var(--muted);
      }
      .exclude:hover {
        color: var(--danger);
        border-color: var(--danger);
      }
      tbody tr:nth-child(even) td {
        background: var(--surface-2);
      }
      tbody tr:hover td {
        background: var(--accent-soft);
      }
      .orderbar {
        display: flex;
        flex-wrap: wrap;
        gap: 0.4rem;
        align-items: center;
        margin-bottom: 0.5rem;
        font-size: 0.9rem;
      }
      .orderbar .chip button {
        padding: 0 0.15rem;
      }
      .orderbar select {
        min-height: 1.8rem;
        padding: 0.1rem 0.3rem;
      }
      .empty {
        padding: 2rem;
        text-align: center;
      }
    `,
  ];

  @property({ attribute: false }) hits: RateHit[] = [];
  @property({ attribute: false }) ordering: Ordering[] = [];
  @property({ type: Boolean }) busy = false;
  /** Each row can be excluded (the rates view's search); a fixed set (a review row's comparables) cannot. */
  @property({ type: Boolean }) excludable = true;
  /**
   * New rows drawn in the render that brings them. Creating a row's DOM is most of the view's first render
   * (50 rows: three quarters of its elements, about 200 ms of script on a small machine, in one task that
   * held everything else on the page, such as a fetch() answer); the rest are drawn in the next task.
   */
  @state() private shownRows = Infinity;
  private restDrawn: Promise<void> = Promise.resolve();

  private setOrdering(ordering: Ordering[]): void {
    this.dispatchEvent(new OrderingChangeEvent(ordering));
  }

  /** Without an explicit ordering the service sorts by price, ascending. */
  private get effective(): Ordering[] {
    return this.ordering.length ? this.ordering : [{ field: 'current_price', dir: 'asc' }];
  }

  private header(c: Column) {
    const effective = this.effective;
    const at = c.sort ? effective.findIndex((o) => o.field === c.sort) : -1;
    const dir = at >= 0 ? effective[at].dir : null;
    const ariaSort = at === 0 ? (dir === 'asc' ? 'ascending' : 'descending') : at > 0 ? 'other' : nothing;
    const cls = `${c.numeric ? 'num' : ''} ${c.wideOnly ? 'wide-only' : ''}`;
    if (!c.sort) {
      const title = c.key === 'escalation' ? 'Escalation: next year price ÷ current price' : c.key === 'sin' ? 'Special Item Number(s)' : nothing;
      return html`<th scope="col" class=${cls} title=${title}>${c.label}</th>`;
    }
    if (c.second) {
      // Two fields share a column (the second under the first), each sortable.
      const secondAt = effective.findIndex((o) => o.field === c.second!.sort);
      return html`<th scope="col" class=${cls} aria-sort=${ariaSort}>
        ${this.sortButton(c.sort, SORT_LABELS[c.sort], c.label, at, dir)} <span class="muted" aria-hidden="true">/</span>
        ${this.sortButton(c.second.sort, SORT_LABELS[c.second.sort], c.second.label, secondAt, secondAt >= 0 ? effective[secondAt].dir : null)}
      </th>`;
    }
    const field = c.sort;
    return html`<th scope="col" class=${cls} aria-sort=${ariaSort}>
      <button
        type="button"
        title="Sort by ${c.label} (Shift+click adds it as a further ordering)"
        @click=${(e: MouseEvent) => this.setOrdering(toggleOrdering(this.ordering, field, e.shiftKey))}
      >
        ${c.label}
        ${
          dir
            ? html`<span class="arrow" aria-hidden="true">${dir === 'asc' ? '▲' : '▼'}${effective.length > 1 ? html`<span class="rank">${at + 1}</span>` : nothing}</span>`
            : nothing
        }
      </button>
    </th>`;
  }

  private sortButton(field: SortField, name: string, label: string, at: number, dir: 'asc' | 'desc' | null) {
    const effective = this.effective;
    return html`<button
      type="button"
      title="Sort by ${name} (Shift+click adds it as a further ordering)"
      @click=${(e: MouseEvent) => this.setOrdering(toggleOrdering(this.ordering, field, e.shiftKey))}
    >
      ${label}
      ${
        dir
          ? html`<span class="arrow" aria-hidden="true">${dir === 'asc' ? '▲' : '▼'}${effective.length > 1 ? html`<span class="rank">${at + 1}</span>` : nothing}</span>`
          : nothing
      }
    </button>`;
  }

  private orderBar() {
    const ordering = this.ordering;
    const unused = (Object.keys(SORT_LABELS) as SortField[]).filter((f) => !ordering.some((o) => o.field === f));
    return html`<div class="orderbar" role="group" aria-label="Ordering">
      <span class="muted">Sorted by</span>
      ${
        ordering.length
          ? ordering.map(
              (o, i) => html`<span class="chip" data-order=${o.field}>
              ${i > 0 ? 'then ' : ''}${SORT_LABELS[o.field]}
              <button
                type="button"
                class="chip-action"
                aria-label="${SORT_LABELS[o.field]}: ${o.dir === 'asc' ? 'ascending' : 'descending'}, reverse"
                @click=${() => this.setOrdering(ordering.map((x, j) => (j === i ? { ...x, dir: x.dir === 'asc' ? 'desc' : 'asc' } : x)))}
              >
                ${o.dir === 'asc' ? '▲' : '▼'}
              </button>
              <button
                type="button"
                class="chip-action"
                aria-label="Remove ordering by ${SORT_LABELS[o.field]}"
                @click=${() => this.setOrdering(ordering.filter((_, j) => j !== i))}
              >
                ×
              </button>
            </span>`,
            )
          : html`<span class="chip">Price ▲ (default)</span>`
      }
      <label>
        <span class="visually-hidden">Add an ordering</span>
        <select
          @change=${(e: Event) => {
            const select = e.target as HTMLSelectElement;
            const field = select.value as SortField;
            select.value = '';
            if (field) this.setOrdering([...ordering, { field, dir: 'asc' }]);
          }}
        >
          <option value="">${ordering.length ? 'then by…' : 'sort by…'}</option>
          ${unused.map((f) => html`<option value=${f}>${SORT_LABELS[f]}</option>`)}
        </select>
      </label>
    </div>`;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('hits')) return;
    const drawn = Math.min((changed.get('hits') as RateHit[] | undefined)?.length ?? 0, this.shownRows);
    this.shownRows = this.hits.length - drawn > FIRST_NEW_ROWS ? drawn + FIRST_NEW_ROWS : Infinity;
  }

  protected override updated(): void {
    // Scheduled once this render's task is over, so that what arrived meanwhile runs first.
    if (this.shownRows >= this.hits.length) return;
    this.restDrawn = new Promise((resolve) =>
      setTimeout(() => {
        this.shownRows = Infinity;
        resolve();
      }),
    );
  }

  /** Complete once every row is drawn. */
  protected override async getUpdateComplete(): Promise<boolean> {
    const drawn = await super.getUpdateComplete();
    await this.restDrawn;
    return (await super.getUpdateComplete()) && drawn;
  }

  override render() {
    return html`${this.orderBar()}
      <div class="table-wrap" aria-busy=${this.busy ? 'true' : 'false'}>
        <table id="rates-table">
          <caption class="visually-hidden">
            Ceiling rates matching the search, one row per labor category on a contract
          </caption>
          <thead>
            <tr>
              ${RATE_COLUMNS.map((c) => this.header(c))}
              ${this.excludable ? html`<th scope="col"><span class="visually-hidden">Exclude</span></th>` : nothing}
            </tr>
          </thead>
          <tbody>
            ${this.hits.slice(0, this.shownRows).map(
              (hit) => html`<tr data-id=${hit._id}>
                ${RATE_COLUMNS.map((c) => {
                  const r = hit._source;
                  const text = c.format ? c.format(r) : String(r[c.key as keyof RateRecord] ?? '—');
                  const cls = `${c.numeric ? 'num' : c.key === 'labor_category' ? 'labor' : c.key === 'vendor_name' ? 'vendor' : ''} ${c.wideOnly ? 'wide-only' : ''}`;
                  if (c.key === 'vendor_name') {
                    // The contract opens its price list's summary: its vendor, list date and every rate of it.
                    return html`<td class=${cls}>
                      ${text}<a class="contract" href=${contractHash(r.idv_piid)} title="The price list of ${r.idv_piid}: its summary and every rate">${r.idv_piid}</a>
                    </td>`;
                  }
                  if (c.key === 'education_level') {
                    return html`<td class=${cls}>${r.education_level || '—'}<span class="second">${r.min_years_experience ?? '—'} yrs</span></td>`;
                  }
                  if (c.key === 'schedule') {
                    return html`<td class=${cls}>${r.schedule || '—'}<span class="second">${r.business_size || '—'}</span></td>`;
                  }
                  if (c.key === 'labor_category') {
                    return html`<td class=${cls}>
                      ${text}<span class="sub"
                        >${r.education_level} · ${r.min_years_experience} yrs · ${r.vendor_name} ·
                        <a href=${contractHash(r.idv_piid)} title="The price list of ${r.idv_piid}: its summary and every rate">${r.idv_piid}</a></span
                      >
                    </td>`;
                  }
                  return html`<td class=${cls} data-col=${c.key}>${text}</td>`;
                })}
                ${
                  this.excludable
                    ? html`<td class="action">
                  <button
                    type="button"
                    class="exclude"
                    aria-label="Exclude ${hit._source.labor_category} (${hit._source.vendor_name}, ${formatPrice(hit._source.current_price)})"
                    title="Exclude this row from the results and figures"
                    @click=${() => this.dispatchEvent(new ExcludeRowEvent(hit._id))}
                  >
                    <span aria-hidden="true">✕</span>
                  </button>
                </td>`
                    : nothing
                }
              </tr>`,
            )}
          </tbody>
        </table>
        ${this.hits.length ? nothing : html`<p class="empty muted">No rates match. Try fewer filters.</p>`}
      </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'rates-table': RatesTable;
  }
  interface HTMLElementEventMap {
    'ordering-change': OrderingChangeEvent;
    'exclude-row': ExcludeRowEvent;
  }
}
