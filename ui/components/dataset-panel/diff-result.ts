import { LitElement, html, css, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { GroupChanges, WeekDiff } from '../../api/db-client.ts';
import { baseStyles, compactTableStyles } from '../common/styles.ts';
import { formatCount } from '../common/format.ts';
import { saveBytes } from '../common/save-file.ts';
import { formatRoute } from '../../state/route.ts';
import {
  CAME_UP_DEFINITION,
  CHANGE_KINDS,
  CHANGE_LABELS,
  groupChangesCsv,
  LOST_DEFINITION,
  weekDiffCsv,
  type ChangeKind,
} from '../../../engine/site-scanning/week-diff.ts';

/** Changes listed on the page; the CSV has them all. */
const LISTED = 100;

/** The per-group table's order: a column (a change kind, or the group's name) and its direction. */
type SortKey = ChangeKind | 'name';

/**
 * What changed between two weeks of Site Scanning, however they were chosen (two weeks held, two datasets): the
 * totals, the one rule of a live site lost and of a site that came up, the counts per agency (or per bureau of the
 * agency compared: sortable), the changed sites, and both as CSV with the weeks, their sources and the sites
 * compared on top.
 */
@customElement('week-diff-result')
export class WeekDiffResult extends LitElement {
  static override styles = [
    baseStyles,
    compactTableStyles,
    css`
      .totals {
        display: flex;
        flex-wrap: wrap;
        gap: 0.4rem;
        margin: 0.5rem 0;
        padding: 0;
        list-style: none;
      }
      .totals li {
        border: 1px solid var(--line);
        border-radius: 8px;
        padding: 0.25rem 0.6rem;
        background: var(--surface-2);
        font-size: 0.9rem;
      }
      .wrap {
        max-height: 24rem;
        margin: 0.5rem 0;
      }
      td.name {
        min-width: 10rem;
      }
      dl.definitions {
        margin: 0.25rem 0 0.5rem;
      }
      dl.definitions dt {
        font-weight: 600;
      }
      dl.definitions dd {
        margin: 0 0 0.35rem;
      }
      h3 {
        margin-top: 0.75rem;
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
      }
      th button.sort {
        all: unset;
        cursor: pointer;
        font-weight: 600;
      }
      th button.sort:focus-visible {
        outline: 3px solid var(--focus);
      }
    `,
  ];

  @property({ attribute: false }) diff!: WeekDiff;
  /** The two weeks and where their records come from, as the exports' header rows. */
  @property({ attribute: false }) notes: [string, string][] = [];
  /** The two weeks' names in the exported files' names. */
  @property({ attribute: false }) names: { before: string; after: string } = { before: 'before', after: 'after' };
  /** Whose sites were compared, in words ("every agency", an agency's name). */
  @property() whose = 'every agency';
  /** Most live sites lost first: what an analyst asks of two weeks first. */
  @state() private sort: { key: SortKey; descending: boolean } = { key: 'lost', descending: true };

  private sorted(groups: readonly GroupChanges[]): GroupChanges[] {
    const { key, descending } = this.sort;
    const name = (g: GroupChanges) => g.name ?? '\uffff';
    const by = (x: GroupChanges, y: GroupChanges) => (key === 'name' ? name(x).localeCompare(name(y)) : x.counts[key] - y.counts[key]);
    return [...groups].sort((x, y) => (descending ? by(y, x) : by(x, y)) || name(x).localeCompare(name(y)));
  }

  private sortBy(key: SortKey): void {
    // A name reads A to Z first, a count most first.
    this.sort = { key, descending: this.sort.key === key ? !this.sort.descending : key !== 'name' };
  }

  private sortHeader(key: SortKey, label: string) {
    const active = this.sort.key === key;
    const order = active ? (this.sort.descending ? 'descending' : 'ascending') : nothing;
    return html`<th scope="col" class=${key === 'name' ? '' : 'num'} aria-sort=${order}>
      <button type="button" class="sort" data-sort=${key} title=${`Sort by ${label}`} @click=${() => this.sortBy(key)}>
        ${label}<span aria-hidden="true">${active ? (this.sort.descending ? ' ▼' : ' ▲') : ''}</span>
      </button>
    </th>`;
  }

  private exportGroups(diff: WeekDiff): void {
    const csv = groupChangesCsv(diff, this.sorted(diff.groups), this.notes);
    saveBytes(new TextEncoder().encode(csv), `site-scanning-changes-by-${diff.by}-${this.names.before}-to-${this.names.after}.csv`, 'text/csv;charset=utf-8');
  }

  private exportCsv(diff: WeekDiff): void {
    const csv = weekDiffCsv(diff, [...this.notes, ['Compared', new Date().toISOString()]]);
    saveBytes(new TextEncoder().encode(csv), `site-scanning-changes-${this.names.before}-to-${this.names.after}.csv`, 'text/csv;charset=utf-8');
  }

  override render() {
    const diff = this.diff;
    if (!diff) return nothing;
    const kinds = CHANGE_KINDS.filter((k) => diff.totals[k] > 0);
    const listed = diff.changes.slice(0, LISTED);
    return html`<ul class="totals" aria-label="Changes in total">
        <li>Sites: <strong data-diff="before">${formatCount(diff.sites.before)}</strong> → <strong data-diff="after">${formatCount(diff.sites.after)}</strong></li>
        ${CHANGE_KINDS.map((k) => html`<li>${CHANGE_LABELS[k]}: <strong data-total=${k}>${formatCount(diff.totals[k])}</strong></li>`)}
      </ul>
      <p class="muted" data-whose>The sites of ${this.whose}: ${formatCount(diff.sites.before)} before, ${formatCount(diff.sites.after)} after.</p>
      <dl class="definitions muted">
        <dt>${CHANGE_LABELS.lost}</dt>
        <dd id="lost-definition">${LOST_DEFINITION}</dd>
        <dt>${CHANGE_LABELS.came_up}</dt>
        <dd id="came-up-definition">${CAME_UP_DEFINITION}</dd>
      </dl>
      <div class="actions">
        <button type="button" @click=${() => this.exportCsv(diff)}>Export changes as CSV</button>
        ${diff.groups.length ? html`<button type="button" @click=${() => this.exportGroups(diff)}>Export counts by ${diff.by} as CSV</button>` : nothing}
      </div>
      ${
        diff.changes.length === 0
          ? html`<p class="muted">No changes: the two weeks hold the same sites with the same states.</p>`
          : html`<h3>By ${diff.by}</h3>
            <div class="wrap" tabindex="0" role="region" aria-label="Changes by ${diff.by}">
              <table id="diff-groups" data-by=${diff.by}>
                <caption class="visually-hidden">Changes per ${diff.by}</caption>
                <thead>
                  <tr>
                    ${this.sortHeader('name', diff.by === 'agency' ? 'Agency' : 'Bureau')} ${kinds.map((k) => this.sortHeader(k, CHANGE_LABELS[k]))}
                  </tr>
                </thead>
                <tbody>
                  ${this.sorted(diff.groups).map(
                    (g) => html`<tr data-group=${g.name ?? ''}>
                      <td class="name">${g.name ?? '(none)'}</td>
                      ${kinds.map((k) => html`<td class="num" data-kind=${k}>${g.counts[k] ? formatCount(g.counts[k]) : ''}</td>`)}
                    </tr>`,
                  )}
                </tbody>
              </table>
            </div>
            <h3>Changes${diff.changes.length > LISTED ? ` (the first ${LISTED} of ${formatCount(diff.changes.length)}; the CSV has all)` : ''}</h3>
            <div class="wrap" tabindex="0" role="region" aria-label="Changed sites">
              <table id="diff-changes">
                <caption class="visually-hidden">Changed sites</caption>
                <thead>
                  <tr>
                    <th scope="col">Change</th>
                    <th scope="col">Target URL</th>
                    <th scope="col">Agency</th>
                    <th scope="col">Bureau</th>
                    <th scope="col">Before → after</th>
                  </tr>
                </thead>
                <tbody>
                  ${listed.map(
                    (c) => html`<tr data-change=${c.kind} data-url=${c.targetUrl}>
                      <td>${CHANGE_LABELS[c.kind]}</td>
                      <td><a href=${formatRoute({ view: 'website', url: c.targetUrl })}>${c.targetUrl}</a></td>
                      <td>${c.agency ?? '—'}</td>
                      <td>${c.bureau ?? '—'}</td>
                      <td>${c.before ? `${c.before} → ${c.after}` : ''}</td>
                    </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'week-diff-result': WeekDiffResult;
  }
}
