import { LitElement, html, css, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DatasetChoices as Choices, DbClient, ImportedDataset } from '../../api/db-client.ts';
import type { DatasetName } from '../../../engine/http/types.ts';
import { datasetDefinition } from '../../../engine/dataset-registry.ts';
import { baseStyles } from '../common/styles.ts';
import { formatBytes, formatCount, formatDate } from '../common/format.ts';
import { importController, tellServiceWorker } from '../import/import-controller.ts';
import { sourceDate, type DatasetSource } from '../../../dataset/artifact/format.ts';
import { ReloadOnReady } from '../common/reload-on-ready.ts';

const TITLES: Partial<Record<DatasetName, string>> = { websites: 'Site Scanning websites', ceilingrates: 'Ceiling rates' };

/** Picks a file and imports it (the same import the drop zone runs). */
@customElement('import-file-button')
export class ImportFileButton extends LitElement {
  static override styles = [baseStyles, css`:host { display: inline-block; }`];
  @consume({ context: dbContext }) db!: DbClient;

  private pick(event: Event): void {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (file) void importController.start(this.db, file);
  }

  override render() {
    return html`<input
        id="import-file"
        class="visually-hidden"
        aria-label="File to import"
        tabindex="-1"
        type="file"
        accept=".csv,.json,text/csv,application/json"
        @change=${this.pick}
      /><button type="button" class="primary" @click=${() => this.renderRoot.querySelector<HTMLInputElement>('#import-file')?.click()}>
        Import a file…
      </button>`;
  }
}

/** Per API: the build's dataset and the imported ones, which one answers, and switching and deleting. */
@customElement('dataset-choices')
export class DatasetChoicesList extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host {
        margin-bottom: 1rem;
      }
      .grid {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr));
        gap: 1rem;
      }
      ul {
        list-style: none;
        margin: 0.5rem 0 0;
        padding: 0;
      }
      li {
        display: flex;
        justify-content: space-between;
        align-items: center;
        gap: 0.5rem;
        padding: 0.5rem 0;
        border-top: 1px solid var(--line);
      }
      li[aria-current='true'] .name {
        font-weight: 600;
      }
      .meta {
        font-size: 0.85rem;
      }
      .buttons {
        display: flex;
        gap: 0.4rem;
        align-items: center;
      }
      .badge {
        font-size: 0.8rem;
        border-radius: 999px;
        padding: 0.1rem 0.55rem;
        border: 1px solid;
        color: var(--ok);
        background: var(--ok-bg);
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @state() private busy = false;
  @state() private message: { ok: boolean; text: string } | null = null;

  private readonly choices = new Task(this, {
    task: async ([db]: [DbClient]) => db.datasetChoices(),
    args: () => [this.db] as [DbClient],
  });

  private readonly refresh = () => void this.choices.run();

  // Another tab imported or switched: this tab's DB worker followed it and says so.
  private readonly reloadOnReady = new ReloadOnReady(this, () => this.db, this.refresh, { when: (p) => p.replaced === true, onDatasetsChanged: true });

  private async change(action: () => Promise<{ ok: boolean; message: string }>, version: string): Promise<void> {
    this.busy = true;
    this.message = null;
    try {
      const outcome = await action();
      this.message = { ok: outcome.ok, text: outcome.message };
      if (outcome.ok) tellServiceWorker(version);
    } catch (error) {
      this.message = { ok: false, text: `Failed: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      this.busy = false;
      void this.choices.run();
    }
  }

  private use(dataset: DatasetName, id: string | null): void {
    void this.change(() => this.db.activateDataset(dataset, id), id ?? `built-in-${dataset}`);
  }

  private deleteItem(item: ImportedDataset): void {
    if (!item.sessionOnly && !confirm(`Delete the imported dataset “${item.fileName}” from this browser?`)) return;
    void this.change(() => this.db.deleteImport(item.id), `deleted-${item.id}`);
  }

  private entry(c: Choices, id: string | null, name: string, meta: unknown, item?: ImportedDataset) {
    const active = c.active === id;
    return html`<li aria-current=${active ? 'true' : 'false'} data-choice=${id ?? 'built-in'}>
      <div>
        <div class="name">${name}</div>
        <div class="meta muted">${meta}</div>
      </div>
      <div class="buttons">
        ${
          active
            ? html`<span class="badge">Active</span>`
            : item?.attachment
              ? nothing
              : html`<button type="button" ?disabled=${this.busy} @click=${() => this.use(c.dataset, id)} aria-label="Use ${name}">Use</button>`
        }
        ${
          item
            ? html`<button type="button" ?disabled=${this.busy} @click=${() => this.deleteItem(item)} aria-label="${item.sessionOnly ? 'Close' : 'Delete'} ${name}">
                ${item.sessionOnly ? 'Close' : 'Delete'}
              </button>`
            : nothing
        }
      </div>
    </li>`;
  }

  private card(c: Choices) {
    return html`<section class="card" data-choices=${c.dataset} aria-labelledby="choices-${c.dataset}">
      <h2 id="choices-${c.dataset}">${TITLES[c.dataset] ?? datasetDefinition(c.dataset).title}: data in use</h2>
      <ul>
        ${this.entry(c, null, 'Built-in dataset', `shipped with the app${weekOf(c.dataset, c.builtIn)}`)}
        ${c.imports.map((item) =>
          this.entry(
            c,
            item.id,
            item.fileName,
            item.attachment
              ? `every week, for Every week and each site's weeks (the data in use stays as chosen here) · ${formatBytes(item.bytes)} stored`
              : `${item.formatLabel}${weekOf(c.dataset, item.source)} · ${formatCount(item.rowsImported)} rows · ${
                  item.sessionOnly ? 'not stored: this window only, until the app is reloaded' : `${formatBytes(item.bytes)} stored`
                } · imported ${formatDate(item.importedAt)}`,
            item,
          ),
        )}
      </ul>
    </section>`;
  }

  override render() {
    return html`${
      this.message
        ? html`<p class=${this.message.ok ? 'muted' : 'error'} role=${this.message.ok ? 'status' : 'alert'} data-switch-message>${this.message.text}</p>`
        : nothing
    }
      ${this.choices.render({
        pending: () => html`<p class="muted">Reading the stored datasets…</p>`,
        complete: (all) => html`<div class="grid">${all.map((c) => this.card(c))}</div>`,
        error: (error) => html`<p class="error" role="alert">The stored datasets cannot be read: ${String(error)}</p>`,
      })}`;
  }
}

/** A real snapshot's date in a choice's line: which week a websites dataset answers from. */
function weekOf(dataset: DatasetName, source: DatasetSource | null | undefined): string {
  const date = sourceDate(source ?? null);
  return date ? (dataset === 'websites' && !date.includes(' to ') ? ` · week of ${date}` : ` · ${date}`) : '';
}

declare global {
  interface HTMLElementTagNameMap {
    'dataset-choices': DatasetChoicesList;
    'import-file-button': ImportFileButton;
  }
}
