import { LitElement, html, css, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { baseStyles } from '../common/styles.ts';
import { formatPrice } from '../common/format.ts';
import { escalation, formatEscalation } from './figures-model.ts';
import type { RateHit, RateRecord } from '../../api/api-types.ts';
import { toggleOrdering, type Ordering, type SortField } from '../../state/rates-query.ts';

interface Column {
  /** A record field, or `escalation` (next year's price ÷ the current one, computed here). */
  key: keyof RateRecord | 'escalation';
  label: string;
  sort?: SortField;
  numeric?: boolean;
  /** Hidden on a phone, where the labor-category cell carries a one-line summary instead. */
  wideOnly?: boolean;
  format?: (r: RateRecord) => string;
}

export const RATE_COLUMNS: readonly Column[] = [
  { key: 'labor_category', label: 'Labor category', sort: 'labor_category' },
  { key: 'education_level', label: 'Education', sort: 'education_level', wideOnly: true },
  { key: 'min_years_experience', label: 'Min. yrs', sort: 'min_years_experience', numeric: true, wideOnly: true },
  { key: 'vendor_name', label: 'Vendor', sort: 'vendor_name', wideOnly: true },
  { key: 'schedule', label: 'Schedule', sort: 'schedule', wideOnly: true },
  { key: 'business_size', label: 'Size', sort: 'business_size', wideOnly: true },
  { key: 'worksite', label: 'Worksite', wideOnly: true },
  { key: 'current_price', label: 'Price', sort: 'current_price', numeric: true, format: (r) => formatPrice(r.current_price) },
  { key: 'next_year_price', label: 'Next year', sort: 'next_year_price', numeric: true, wideOnly: true, format: (r) => formatPrice(r.next_year_price) },
  { key: 'second_year_price', label: '2nd year', sort: 'second_year_price', numeric: true, wideOnly: true, format: (r) => formatPrice(r.second_year_price) },
  { key: 'escalation', label: 'Escalation', numeric: true, wideOnly: true, format: (r) => formatEscalation(escalation(r)) },
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
        font-size: 0.85rem;
      }
      th,
      td {
        padding: 0.35rem 0.45rem;
      }
      td.labor {
        min-width: 11rem;
        font-weight: 500;
      }
      td.vendor {
        min-width: 9rem;
      }
      td.num {
        white-space: nowrap;
      }
      .contract {
        display: block;
        color: var(--muted);
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
        all: unset;
        cursor: pointer;
        padding: 0 0.15rem;
      }
      .orderbar .chip button:focus-visible {
        outline: 2px solid var(--focus);
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
      const title = c.key === 'escalation' ? 'Next year price ÷ current price' : nothing;
      return html`<th scope="col" class=${cls} title=${title}>${c.label}</th>`;
    }
    if (c.key === 'vendor_name') {
      // Vendor and contract share a column (the contract under the vendor), each sortable.
      const contractAt = effective.findIndex((o) => o.field === 'idv_piid');
      return html`<th scope="col" class=${cls} aria-sort=${ariaSort}>
        ${this.sortButton('vendor_name', 'Vendor', at, dir)} <span class="muted" aria-hidden="true">/</span>
        ${this.sortButton('idv_piid', 'Contract', contractAt, contractAt >= 0 ? effective[contractAt].dir : null)}
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

  private sortButton(field: SortField, label: string, at: number, dir: 'asc' | 'desc' | null) {
    const effective = this.effective;
    return html`<button
      type="button"
      title="Sort by ${label} (Shift+click adds it as a further ordering)"
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
                aria-label="${SORT_LABELS[o.field]}: ${o.dir === 'asc' ? 'ascending' : 'descending'}, reverse"
                @click=${() => this.setOrdering(ordering.map((x, j) => (j === i ? { ...x, dir: x.dir === 'asc' ? 'desc' : 'asc' } : x)))}
              >
                ${o.dir === 'asc' ? '▲' : '▼'}
              </button>
              <button
                type="button"
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
              <th scope="col"><span class="visually-hidden">Exclude</span></th>
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
                    return html`<td class=${cls}>${text}<span class="contract">${r.idv_piid}</span></td>`;
                  }
                  if (c.key === 'labor_category') {
                    return html`<td class=${cls}>
                      ${text}<span class="sub">${r.education_level} · ${r.min_years_experience} yrs · ${r.vendor_name}</span>
                    </td>`;
                  }
                  return html`<td class=${cls} data-col=${c.key}>${text}</td>`;
                })}
                <td class="action">
                  <button
                    type="button"
                    class="exclude"
                    aria-label="Exclude ${hit._source.labor_category} (${hit._source.vendor_name}, ${formatPrice(hit._source.current_price)})"
                    title="Exclude this row from the results and figures"
                    @click=${() => this.dispatchEvent(new ExcludeRowEvent(hit._id))}
                  >
                    <span aria-hidden="true">✕</span>
                  </button>
                </td>
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
