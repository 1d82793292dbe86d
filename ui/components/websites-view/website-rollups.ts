import { LitElement, html, css, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { styleMap } from 'lit/directives/style-map.js';
import { baseStyles, compactTableStyles } from '../common/styles.ts';
import { formatCount } from '../common/format.ts';
import type { RollupRow, Rollups } from '../../api/db-client.ts';
import { percent, ROLLUP_SHARES, sortRows, type ShareColumn } from './rollup-model.ts';
import type { RollupColumn, RollupGroup, RollupState } from '../../state/websites-query.ts';
import { RovingTable } from '../common/roving-table.ts';

/** The user sorted the roll-up, switched its grouping, or picked an owner (which filters the list). */
export class RollupChangeEvent extends Event {
  constructor(
    readonly rollup: Partial<RollupState>,
    /** An owner picked: the list is filtered to it (an agency also drills down to its bureaus). */
    readonly owner: { group: RollupGroup; name: string } | null = null,
  ) {
    super('rollup-change', { bubbles: true, composed: true });
  }
}

/** The user asked for the roll-up as CSV, in the order shown; the view adds the query and the source. */
export class RollupExportEvent extends Event {
  constructor(
    readonly rows: RollupRow[],
    readonly ownerLabel: string,
  ) {
    super('rollup-export', { bubbles: true, composed: true });
  }
}

const GROUP_LABELS: Record<RollupGroup, string> = { target_url_agency_owner: 'Agency', target_url_bureau_owner: 'Bureau' };

/**
 * Roll-ups of the matching websites by agency (or by bureau): sites, the shares live, with analytics, using
 * the design system and showing the banner, and the scan statuses; each share drawn as a bar. A heading
 * sorts; an owner's name filters the list (an agency drills down to its bureaus).
 */
@customElement('website-rollups')
export class WebsiteRollups extends LitElement {
  static override styles = [
    baseStyles,
    compactTableStyles,
    css`
      .head {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        align-items: baseline;
        justify-content: space-between;
        margin-bottom: 0.5rem;
      }
      .wrap {
        max-height: 26rem;
      }
      .head-actions {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        align-items: baseline;
      }
      th,
      td {
        vertical-align: middle;
      }
      thead th {
        white-space: nowrap;
      }
      th button {
        all: unset;
        cursor: pointer;
        font-weight: 600;
      }
      th button:focus-visible {
        outline: 3px solid var(--focus);
      }
      td.name {
        /* Whole words on a phone: the table scrolls sideways in its box instead. */
        min-width: 10rem;
      }
      td.name button {
        all: unset;
        cursor: pointer;
        color: var(--link);
        text-decoration: underline;
        overflow-wrap: break-word;
      }
      td.name button:focus-visible {
        outline: 3px solid var(--focus);
      }
      .share {
        min-width: 5.5rem;
      }
      .share .value {
        display: block;
        text-align: right;
      }
      .bar {
        display: block;
        height: 0.4rem;
        background: var(--accent-soft);
        border-radius: 2px;
        overflow: hidden;
      }
      .bar span {
        display: block;
        height: 100%;
        background: var(--accent);
      }
      .statuses {
        display: flex;
        height: 0.4rem;
        border-radius: 2px;
        overflow: hidden;
        background: var(--line);
      }
      .statuses span {
        height: 100%;
      }
      .statuses .ok {
        background: var(--ok);
      }
      .statuses .fail {
        background: var(--danger);
      }
      .statuses .other {
        background: var(--line-strong);
      }
      .definition {
        margin: 0 0 0.5rem;
        font-size: 0.85rem;
        color: var(--muted);
      }
      tfoot td {
        font-weight: 650;
        border-top: 2px solid var(--line-strong);
        /* The totals stay in view while the owners scroll. */
        position: sticky;
        bottom: 0;
        background: var(--surface);
      }
    `,
  ];

  @property({ attribute: false }) rollups: Rollups | null = null;
  @property({ attribute: false }) state!: RollupState;
  private readonly roving = new RovingTable(this);

  override updated(): void {
    this.roving.sync(this.renderRoot.querySelector<HTMLTableElement>('#rollup-table'));
  }

  private sortBy(key: RollupColumn): void {
    const same = this.state.order === key;
    const dir = same ? (this.state.dir === 'asc' ? 'desc' : 'asc') : key === 'name' ? 'asc' : 'desc';
    this.dispatchEvent(new RollupChangeEvent({ order: key, dir }));
  }

  private header(key: RollupColumn, label: string, help?: string, num = true) {
    const active = this.state.order === key;
    const sort = active ? (this.state.dir === 'asc' ? 'ascending' : 'descending') : nothing;
    return html`<th scope="col" class=${num ? 'num' : ''} aria-sort=${sort}>
      <button type="button" title=${help ?? `Sort by ${label}`} @click=${() => this.sortBy(key)}>
        ${label}${active ? html`<span aria-hidden="true">${this.state.dir === 'asc' ? ' ▲' : ' ▼'}</span>` : nothing}
      </button>
    </th>`;
  }

  private share(row: RollupRow, spec: ShareColumn) {
    const n = spec.count!(row);
    const width = row.sites ? (n / row.sites) * 100 : 0;
    const text = percent(n, row.sites);
    if (spec.key === 'completed') {
      const parts = Object.entries(row.statuses).sort((a, b) => b[1] - a[1]);
      const label = parts.map(([s, c]) => `${s} ${formatCount(c)}`).join(', ');
      return html`<td class="share" data-col=${spec.key} title=${label}>
        <span class="value">${text}</span>
        <span class="statuses" role="img" aria-label="Outcomes: ${label}">
          ${parts.map(
            ([s, c]) =>
              html`<span class=${s === 'completed' ? 'ok' : s === 'not_applicable' || s === 'skipped' ? 'other' : 'fail'} style=${styleMap({ width: `${(c / row.sites) * 100}%` })}></span>`,
          )}
        </span>
      </td>`;
    }
    return html`<td class="share" data-col=${spec.key} title="${formatCount(n)} of ${formatCount(row.sites)}">
      <span class="value">${text}</span>
      <span class="bar" aria-hidden="true"><span style=${styleMap({ width: `${width}%` })}></span></span>
    </td>`;
  }

  private pick(row: RollupRow): void {
    if (row.name === null) return;
    const group = this.state.group;
    // An agency drills down to its bureaus; a bureau filters the list to itself.
    this.dispatchEvent(new RollupChangeEvent(group === 'target_url_agency_owner' ? { group: 'target_url_bureau_owner' } : {}, { group, name: row.name }));
  }

  private row(row: RollupRow, foot = false) {
    const name = foot ? 'All matching sites' : (row.name ?? '(none)');
    return html`<tr data-owner=${row.name ?? ''}>
      <td class="name">
        ${
          foot || row.name === null
            ? name
            : html`<button type="button" title="Show only ${name}'s websites${this.state.group === 'target_url_agency_owner' ? ', by bureau' : ''}" @click=${() => this.pick(row)}>
              ${name}
            </button>`
        }
      </td>
      <td class="num" data-col="sites">${formatCount(row.sites)}</td>
      ${ROLLUP_SHARES.map((spec) => this.share(row, spec))}
    </tr>`;
  }

  override render() {
    const r = this.rollups;
    const group = this.state.group;
    const label = GROUP_LABELS[group];
    return html`<section class="card" aria-labelledby="rollup-h">
      <div class="head">
        <h2 id="rollup-h">By ${label.toLowerCase()}</h2>
        <span class="head-actions">
          ${
            r
              ? html`<button type="button" @click=${() => this.dispatchEvent(new RollupExportEvent(sortRows(r.rows, this.state.order, this.state.dir), label))}>
                  Export the roll-up as CSV
                </button>`
              : nothing
          }
          ${
            group === 'target_url_bureau_owner'
              ? html`<button type="button" class="link" @click=${() => this.dispatchEvent(new RollupChangeEvent({ group: 'target_url_agency_owner' }))}>
                Roll up by agency
              </button>`
              : html`<button type="button" class="link" @click=${() => this.dispatchEvent(new RollupChangeEvent({ group: 'target_url_bureau_owner' }))}>
                Roll up by bureau
              </button>`
          }
        </span>
      </div>
      ${
        r
          ? html`<p class="definition" id="rollup-definition">
                Each share is out of the row's <strong>Sites</strong>: every matching site, whether its scan completed or not (a failed or
                unscanned site counts as not live, without DAP, without the design system and the banner). <strong>Scans</strong> is the share
                completed; its bar shows every outcome.
                ${ROLLUP_SHARES.filter((c) => c.key !== 'completed').map((c, i) => html`${i ? ' · ' : ''}<strong>${c.label}</strong>: ${c.help}`)}.
              </p>
              <p class="visually-hidden" id="rollup-keys">One tab stop: the arrow keys move between the headings and the names.</p>
              <div
                class="wrap"
                role="region"
                aria-label="Roll-up by ${label.toLowerCase()}"
                aria-describedby="rollup-keys"
                @keydown=${this.roving.keydown}
                @focusin=${this.roving.focusin}
              >
            <table id="rollup-table">
              <caption class="visually-hidden">
                Matching websites by ${label.toLowerCase()}: number of sites and the share live, with analytics, using the design
                system, with the banner, and scans completed
              </caption>
              <thead>
                <tr>
                  ${this.header('name', label, undefined, false)} ${this.header('sites', 'Sites')}
                  ${ROLLUP_SHARES.map((c) => this.header(c.key, c.label, c.help))}
                </tr>
              </thead>
              <tbody>
                ${sortRows(r.rows, this.state.order, this.state.dir).map((row) => this.row(row))}
              </tbody>
              <tfoot>
                ${this.row(r.total, true)}
              </tfoot>
            </table>
          </div>`
          : html`<p class="muted">Rolling up…</p>`
      }
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'website-rollups': WebsiteRollups;
  }
  interface HTMLElementEventMap {
    'rollup-change': RollupChangeEvent;
    'rollup-export': RollupExportEvent;
  }
}
