import { LitElement, html, css, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DatasetChoices, DbClient, SnapshotDiff } from '../../api/db-client.ts';
import { baseStyles, compactTableStyles } from '../common/styles.ts';
import { formatCount, formatDate } from '../common/format.ts';
import { saveBytes } from '../common/save-file.ts';
import { navigate } from '../../state/route.ts';
import { BUILD_DATASET_ID, SNAPSHOT_DIFF_PARAMETERS } from '../../../engine/site-scanning/parameters.ts';
import {
  agencyChangesCsv,
  CHANGE_KINDS,
  CHANGE_LABELS,
  LOST_DEFINITION,
  snapshotDiffCsv,
  type AgencyChanges,
  type ChangeKind,
} from '../../../engine/site-scanning/snapshot-diff.ts';
import { sourceDate, type DatasetSource } from '../../../dataset/artifact/format.ts';
import { DATASETS_CHANGED } from '../import/import-controller.ts';

const [FROM, TO] = SNAPSHOT_DIFF_PARAMETERS;
/** Changes listed on the page; the CSV has them all. */
const LISTED = 100;

interface Choice {
  id: string;
  label: string;
  /** The week's date (a real snapshot's), or null when the file does not say. */
  date: string | null;
  /** Where its records come from, in one line. */
  source: string;
}

/** The per-agency table's order: a column (a change kind, or the agency's name) and its direction. */
type SortKey = ChangeKind | 'agency';

const choice = (id: string, label: string, source: DatasetSource | null | undefined, fallback: string): Choice => {
  const date = sourceDate(source ?? null);
  return { id, label: date ? `${label}, week of ${date}` : label, date, source: source?.label ?? fallback };
};

const toDatasetId = (choice: string): string | null => (choice === BUILD_DATASET_ID ? null : choice);

/**
 * Two Site Scanning datasets side by side (the build's and the imported weekly files): the sites added and
 * removed, and those that went down or came up, gained or lost analytics or the design system, or changed
 * scan status, per agency; exportable as CSV. The two choices live in the URL (`diff_from`, `diff_to`).
 */
@customElement('snapshot-diff')
export class SnapshotDiffPanel extends LitElement {
  static override styles = [
    baseStyles,
    compactTableStyles,
    css`
      :host {
        margin: 1rem 0;
      }
      .pick {
        display: flex;
        flex-wrap: wrap;
        gap: 0.75rem 1rem;
        align-items: end;
        margin: 0.6rem 0;
      }
      .pick label {
        display: block;
        font-weight: 600;
        font-size: 0.9rem;
        margin-bottom: 0.25rem;
      }
      .pick select {
        max-width: 100%;
      }
      .pick > div {
        min-width: 0;
        max-width: 100%;
      }
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
      td.agency {
        min-width: 10rem;
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

  @consume({ context: dbContext }) db!: DbClient;
  @property({ attribute: false }) params = new URLSearchParams();
  /** Most live sites lost first: what an analyst asks of two weeks first. */
  @state() private sort: { key: SortKey; descending: boolean } = { key: 'lost', descending: true };

  private readonly choices = new Task(this, {
    task: async ([db]: [DbClient]): Promise<Choice[]> => {
      const all: DatasetChoices[] = await db.datasetChoices();
      const websites = all.find((c) => c.dataset === 'websites');
      return [
        choice(BUILD_DATASET_ID, 'Built-in dataset', websites?.builtIn, 'the built-in dataset'),
        ...(websites?.imports ?? []).map((i) => choice(i.id, `${i.fileName} (imported ${formatDate(i.importedAt)})`, i.source, `Your file: ${i.fileName}`)),
      ];
    },
    args: () => [this.db] as [DbClient],
  });

  private readonly diff = new Task(this, {
    task: async ([from, to]: [string, string]): Promise<{ key: string; diff: SnapshotDiff } | null> => {
      if (!from || !to) return null;
      const answer = await this.db.diffWebsiteSnapshots(toDatasetId(from), toDatasetId(to));
      if (!answer.ok) throw new Error(answer.message);
      return { key: `${from}|${to}`, diff: answer.diff };
    },
    args: () => [this.params.get(FROM.name) ?? '', this.params.get(TO.name) ?? ''] as [string, string],
  });

  private readonly refresh = () => void this.choices.run();

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener(DATASETS_CHANGED, this.refresh);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener(DATASETS_CHANGED, this.refresh);
  }

  override updated(): void {
    const shown = this.diff.value?.key ?? '';
    if (this.getAttribute('data-rendered-diff') !== shown) this.setAttribute('data-rendered-diff', shown);
  }

  private choose(which: 'from' | 'to', value: string): void {
    const params = new URLSearchParams(this.params);
    const name = which === 'from' ? FROM.name : TO.name;
    if (value) params.set(name, value);
    else params.delete(name);
    navigate({ view: 'datasets', query: params });
  }

  private sorted(agencies: readonly AgencyChanges[]): AgencyChanges[] {
    const { key, descending } = this.sort;
    const name = (a: AgencyChanges) => a.agency ?? '\uffff';
    const by = (x: AgencyChanges, y: AgencyChanges) => (key === 'agency' ? name(x).localeCompare(name(y)) : x.counts[key] - y.counts[key]);
    return [...agencies].sort((x, y) => (descending ? by(y, x) : by(x, y)) || name(x).localeCompare(name(y)));
  }

  private sortBy(key: SortKey): void {
    // A name reads A to Z first, a count most first.
    this.sort = { key, descending: this.sort.key === key ? !this.sort.descending : key !== 'agency' };
  }

  private sortHeader(key: SortKey, label: string) {
    const active = this.sort.key === key;
    const order = active ? (this.sort.descending ? 'descending' : 'ascending') : nothing;
    return html`<th scope="col" class=${key === 'agency' ? '' : 'num'} aria-sort=${order}>
      <button type="button" class="sort" data-sort=${key} title=${`Sort by ${label}`} @click=${() => this.sortBy(key)}>
        ${label}<span aria-hidden="true">${active ? (this.sort.descending ? ' ▼' : ' ▲') : ''}</span>
      </button>
    </th>`;
  }

  /** The two weeks and where their records come from, as the exports' header rows. */
  private weekNotes(): [string, string][] {
    const pick = (name: string) => this.choices.value?.find((c) => c.id === (this.params.get(name) ?? ''));
    const before = pick(FROM.name);
    const after = pick(TO.name);
    return [
      ['Before', before?.date ?? before?.label ?? ''],
      ['After', after?.date ?? after?.label ?? ''],
      ['Source before', before?.source ?? ''],
      ['Source after', after?.source ?? ''],
      ['Live sites lost', LOST_DEFINITION],
    ];
  }

  private exportAgencies(diff: SnapshotDiff): void {
    const csv = agencyChangesCsv(this.sorted(diff.agencies), this.weekNotes());
    const date = (name: string) => this.choices.value?.find((c) => c.id === this.params.get(name))?.date ?? name.replace('diff_', '');
    saveBytes(new TextEncoder().encode(csv), `site-scanning-changes-by-agency-${date(FROM.name)}-to-${date(TO.name)}.csv`, 'text/csv;charset=utf-8');
  }

  private exportCsv(diff: SnapshotDiff): void {
    const csv = snapshotDiffCsv(diff, [...this.weekNotes(), ['Compared', new Date().toISOString()]]);
    saveBytes(new TextEncoder().encode(csv), `site-scanning-changes-${new Date().toISOString().slice(0, 10)}.csv`, 'text/csv;charset=utf-8');
  }

  private select(which: 'from' | 'to', label: string, choices: Choice[]) {
    const name = which === 'from' ? FROM.name : TO.name;
    const current = this.params.get(name) ?? '';
    return html`<div>
      <label for="diff-${which}">${label}</label>
      <select id="diff-${which}" name=${name} @change=${(e: Event) => this.choose(which, (e.target as HTMLSelectElement).value)}>
        <option value="" .selected=${current === ''}>Choose a dataset…</option>
        ${choices.map((c) => html`<option value=${c.id} .selected=${current === c.id}>${c.label}</option>`)}
      </select>
    </div>`;
  }

  private result(diff: SnapshotDiff) {
    const kinds = CHANGE_KINDS.filter((k) => diff.totals[k] > 0);
    const listed = diff.changes.slice(0, LISTED);
    return html`<ul class="totals" aria-label="Changes in total">
        <li>Sites: <strong data-diff="before">${formatCount(diff.sites.before)}</strong> → <strong data-diff="after">${formatCount(diff.sites.after)}</strong></li>
        ${CHANGE_KINDS.map((k) => html`<li>${CHANGE_LABELS[k]}: <strong data-total=${k}>${formatCount(diff.totals[k])}</strong></li>`)}
      </ul>
      <p class="muted" id="lost-definition">${LOST_DEFINITION}</p>
      <div class="actions">
        <button type="button" @click=${() => this.exportCsv(diff)}>Export changes as CSV</button>
        ${diff.agencies.length ? html`<button type="button" @click=${() => this.exportAgencies(diff)}>Export counts by agency as CSV</button>` : nothing}
      </div>
      ${
        diff.changes.length === 0
          ? html`<p class="muted">No changes: the two datasets hold the same sites with the same states.</p>`
          : html`<h3>By agency</h3>
            <div class="wrap" tabindex="0" role="region" aria-label="Changes by agency">
              <table id="diff-agencies">
                <caption class="visually-hidden">Changes per agency</caption>
                <thead>
                  <tr>
                    ${this.sortHeader('agency', 'Agency')} ${kinds.map((k) => this.sortHeader(k, CHANGE_LABELS[k]))}
                  </tr>
                </thead>
                <tbody>
                  ${this.sorted(diff.agencies).map(
                    (a) => html`<tr data-agency=${a.agency ?? ''}>
                      <td class="agency">${a.agency ?? '(none)'}</td>
                      ${kinds.map((k) => html`<td class="num" data-kind=${k}>${a.counts[k] ? formatCount(a.counts[k]) : ''}</td>`)}
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
                    <th scope="col">Before → after</th>
                  </tr>
                </thead>
                <tbody>
                  ${listed.map(
                    (c) => html`<tr data-change=${c.kind} data-url=${c.targetUrl}>
                      <td>${CHANGE_LABELS[c.kind]}</td>
                      <td>${c.targetUrl}</td>
                      <td>${c.agency ?? '—'}</td>
                      <td>${c.before ? `${c.before} → ${c.after}` : ''}</td>
                    </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }`;
  }

  override render() {
    const choices = this.choices.value ?? [];
    const from = this.params.get(FROM.name) ?? '';
    const to = this.params.get(TO.name) ?? '';
    return html`<section class="card" aria-labelledby="diff-h">
      <h2 id="diff-h">Compare two Site Scanning snapshots</h2>
      <p class="muted">Import two weekly snapshot files (or compare one with the built-in dataset) to see which sites were added or removed and which changed.</p>
      <div class="pick">${this.select('from', 'Before', choices)} ${this.select('to', 'After', choices)}</div>
      ${from && to && from === to ? html`<p class="muted">Choose two different datasets.</p>` : nothing}
      ${this.diff.render({
        pending: () => html`<p class="muted" role="status">Comparing…</p>`,
        complete: (value) => (value ? this.result(value.diff) : nothing),
        error: (e) => html`<p class="error" role="alert">${e instanceof Error ? e.message : String(e)}</p>`,
      })}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'snapshot-diff': SnapshotDiffPanel;
  }
}
