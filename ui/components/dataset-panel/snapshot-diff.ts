import { LitElement, html, css, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DatasetChoices, DbClient, WeekDiff } from '../../api/db-client.ts';
import { baseStyles, pickerStyles } from '../common/styles.ts';
import { formatDate } from '../common/format.ts';
import { navigate } from '../../state/route.ts';
import { BUILD_DATASET_ID, SNAPSHOT_DIFF_PARAMETERS } from '../../../engine/site-scanning/parameters.ts';
import { CAME_UP_DEFINITION, LOST_DEFINITION } from '../../../engine/site-scanning/week-diff.ts';
import './diff-result.ts';
import { sourceDate, type DatasetSource } from '../../../dataset/artifact/format.ts';
import { DATASETS_CHANGED } from '../import/import-controller.ts';

const [FROM, TO] = SNAPSHOT_DIFF_PARAMETERS;

interface Choice {
  id: string;
  label: string;
  /** The week's date (a real week's), or null when the file does not say. */
  date: string | null;
  /** Where its records come from, in one line. */
  source: string;
}

const choice = (id: string, label: string, source: DatasetSource | null | undefined, fallback: string): Choice => {
  const date = sourceDate(source ?? null);
  return { id, label: date ? `${label}, week of ${date}` : label, date, source: source?.label ?? fallback };
};

const toDatasetId = (choice: string): string | null => (choice === BUILD_DATASET_ID ? null : choice);

/**
 * Two Site Scanning datasets side by side (the build's and the imported weekly files), compared as two weeks are
 * (engine/site-scanning/week-diff.ts): the sites added and removed, and those lost or that came up, gained or lost
 * analytics or the design system, or changed scan status, per agency; exportable as CSV. The two choices live in
 * the URL (`diff_from`, `diff_to`).
 */
@customElement('snapshot-diff')
export class SnapshotDiffPanel extends LitElement {
  static override styles = [
    baseStyles,
    pickerStyles,
    css`
      :host {
        margin: 1rem 0;
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @property({ attribute: false }) params = new URLSearchParams();

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
    task: async ([from, to]: [string, string]): Promise<{ key: string; diff: WeekDiff } | null> => {
      if (!from || !to) return null;
      const answer = await this.db.compareWebsiteDatasets(toDatasetId(from), toDatasetId(to));
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
      ['Came up', CAME_UP_DEFINITION],
    ];
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

  /** The weeks' dates (or the datasets' names) in the exported files' names. */
  private names(): { before: string; after: string } {
    const date = (name: string) => this.choices.value?.find((c) => c.id === this.params.get(name))?.date ?? name.replace('diff_', '');
    return { before: date(FROM.name), after: date(TO.name) };
  }

  override render() {
    const choices = this.choices.value ?? [];
    const from = this.params.get(FROM.name) ?? '';
    const to = this.params.get(TO.name) ?? '';
    return html`<section class="card" aria-labelledby="diff-h">
      <h2 id="diff-h">Compare two weeks of Site Scanning files</h2>
      <p class="muted">
        Import two weekly files (or compare one with the built-in dataset) to see which sites were added or removed and which changed.
        Any two of the built-in weeks: <a href="#/weeks">Every week</a>.
      </p>
      <div class="pick">${this.select('from', 'Before', choices)} ${this.select('to', 'After', choices)}</div>
      ${from && to && from === to ? html`<p class="muted">Choose two different datasets.</p>` : nothing}
      ${this.diff.render({
        pending: () => html`<p class="muted" role="status">Comparing…</p>`,
        complete: (value) =>
          value ? html`<week-diff-result .diff=${value.diff} .notes=${this.weekNotes()} .names=${this.names()}></week-diff-result>` : nothing,
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
