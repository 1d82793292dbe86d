import { LitElement, html, css, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DatasetStatus, DbClient, DbStatus } from '../../api/db-client.ts';
import { baseStyles } from '../common/styles.ts';
import { formatBytes, formatCount, formatDate } from '../common/format.ts';
import { saveBytes } from '../common/save-file.ts';
import './dataset-choices.ts';
import './snapshot-diff.ts';
import './import-from-web.ts';
import './storage-card.ts';
import { importController, type ImportState } from '../import/import-controller.ts';
import { sourceDate, type DatasetSource, type ExtraArtifact } from '../../../dataset/artifact/format.ts';
import { attachmentOf } from '../../../engine/dataset-registry.ts';
import { ReloadOnReady } from '../common/reload-on-ready.ts';

const TITLES: Record<string, string> = {
  websites: 'Site Scanning websites',
  ceilingrates: 'Ceiling rates',
};

/** Whether a built-in dataset's records are real or generated, as a badge. */
const kindBadge = (source: DatasetSource) => html`<span class="source-badge ${source.kind}">${source.kind === 'synthetic' ? 'Synthetic' : 'Real'}</span>`;

/** Which datasets are open, from which build, how big; and the two ways to fetch them again. */
@customElement('dataset-panel')
export class DatasetPanel extends LitElement {
  static override styles = [
    baseStyles,
    css`
      .top {
        display: flex;
        flex-wrap: wrap;
        justify-content: space-between;
        align-items: center;
        gap: 0.5rem;
        margin-bottom: 1rem;
      }
      .actions {
        display: flex;
        gap: 0.5rem;
        flex-wrap: wrap;
      }
      .grid {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr));
        gap: 1rem;
      }
      dl {
        display: grid;
        grid-template-columns: auto 1fr;
        gap: 0.35rem 1rem;
        margin: 0.75rem 0;
      }
      dt {
        color: var(--muted);
      }
      dd {
        margin: 0;
        font-variant-numeric: tabular-nums;
        overflow-wrap: anywhere;
      }
      .badge {
        font-size: 0.8rem;
        border-radius: 999px;
        padding: 0.1rem 0.55rem;
        border: 1px solid;
      }
      .ok {
        color: var(--ok);
        background: var(--ok-bg);
      }
      .bad {
        color: var(--danger);
        background: var(--danger-bg);
      }
      .head {
        display: flex;
        justify-content: space-between;
        align-items: center;
        gap: 0.5rem;
      }
      p.note {
        margin-top: 1rem;
        font-size: 0.9rem;
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  /** The route's query: the snapshot diff's choices. */
  @property({ attribute: false }) params = new URLSearchParams();
  @state() private busy: '' | 'reload' | 'reset' = '';
  @state() private message = '';
  @state() private importing = importController.state.kind === 'running';
  private unsubscribeImport: (() => void) | null = null;

  private readonly status = new Task(this, {
    task: async ([db]: [DbClient]) => db.status(),
    args: () => [this.db] as [DbClient],
  });

  // Redraw when a load (the first one, or another tab of this panel's doing) finishes a dataset.
  private readonly reloadOnReady = new ReloadOnReady(
    this,
    () => this.db,
    () => void this.status.run(),
    {
      when: (p) => p.phase === 'ready' || p.phase === 'error',
      onDatasetsChanged: true,
    },
  );

  override connectedCallback(): void {
    super.connectedCallback();
    this.unsubscribeImport = importController.subscribe((state: ImportState) => (this.importing = state.kind === 'running'));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribeImport?.();
  }

  private async act(kind: 'reload' | 'reset'): Promise<void> {
    this.busy = kind;
    this.message = '';
    try {
      const result: DbStatus = kind === 'reload' ? await this.db.reload() : await this.db.reset();
      const failed = result.datasets.filter((d) => d.error);
      this.message = failed.length
        ? `Finished with errors: ${failed.map((d) => `${d.name}: ${d.error}`).join('; ')}`
        : kind === 'reload'
          ? `Checked for new data: version ${result.version ?? '—'} is loaded.`
          : `Downloaded again: version ${result.version ?? '—'} is loaded.`;
    } catch (error) {
      this.message = `Failed: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.busy = '';
      void this.status.run();
    }
  }

  private async download(name: DatasetStatus['name']): Promise<void> {
    const bytes = await this.db.exportDatabase(name);
    saveBytes(bytes, `${name}.sqlite`, 'application/vnd.sqlite3');
  }

  private card(d: DatasetStatus) {
    const rows = Object.entries(d.rows);
    return html`<section class="card" aria-labelledby="ds-${d.name}" data-dataset=${d.name}>
      <div class="head">
        <h2 id="ds-${d.name}">${TITLES[d.name] ?? d.name}</h2>
        ${
          d.loaded
            ? html`<span class="badge ok">Loaded</span>`
            : d.error
              ? html`<span class="badge bad">Failed</span>`
              : html`<span class="badge">Loading…</span>`
        }
      </div>
      ${d.error ? html`<p class="error" role="alert">${d.error}</p>` : nothing}
      <dl>
        <dt>Dataset</dt>
        <dd><code>${d.name}</code></dd>
        <dt>Version</dt>
        <dd data-field="version">${d.version ?? '—'}</dd>
        ${
          rows.length
            ? rows.map(([table, n]) => html`<dt>Records (${table})</dt><dd data-rows=${table}>${formatCount(n)}</dd>`)
            : html`<dt>Records</dt><dd>—</dd>`
        }
        <dt>Download size</dt>
        <dd>${d.bytes ? formatBytes(d.bytes) : '—'}</dd>
        <dt>Database size</dt>
        <dd>${d.rawBytes ? formatBytes(d.rawBytes) : '—'}</dd>
        <dt>Source</dt>
        <dd data-field="source">
          ${d.importName ? html`imported from <strong>${d.importName}</strong>` : d.source ? html`${kindBadge(d.source)} built-in. ${d.source.label}` : '—'}
        </dd>
        <dt>Data date</dt>
        <dd data-field="data-date">${sourceDate(d.source) ?? (d.source?.kind === 'synthetic' ? 'none (generated data)' : formatDate(d.fileDate))}</dd>
        <dt>Opened</dt>
        <dd>${formatDate(d.loadedAt)}</dd>
        <dt>Load steps</dt>
        <dd>
          ${
            d.timings
              ? `download and check ${d.timings.download} ms · queued ${d.timings.queued} ms · unpack ${d.timings.decompress} ms · open ${d.timings.open} ms${
                  d.timings.bind === null ? '' : ` · bind ${d.timings.bind} ms`
                }${d.timings.firstAnswer === null ? '' : ` · first answer ${d.timings.firstAnswer} ms`}`
              : '—'
          }
        </dd>
        <dt>sha256</dt>
        <dd><code>${d.sha256 ? d.sha256.slice(0, 16) + '…' : '—'}</code></dd>
      </dl>
      <button type="button" ?disabled=${!d.loaded} @click=${() => this.download(d.name)}>Save as .sqlite</button>
    </section>`;
  }

  /** The build's further real datasets: downloaded only when asked, then kept like an import. */
  private extras(extras: readonly ExtraArtifact[]) {
    if (!extras.length) return nothing;
    return html`<section class="card extras" aria-labelledby="extras-title">
      <h2 id="extras-title">More built-in datasets</h2>
      <p class="muted">
        Part of this app but not downloaded on the first visit. Loading one keeps it in this browser beside your imports, where you can switch
        to it, compare it or delete it; each button says whether loading also switches the data the views answer from.
      </p>
      <ul>
        ${extras.map(
          (extra) => html`<li data-extra=${extra.id}>
            ${kindBadge(extra.source)}
            <strong>${extra.title}</strong>, ${formatBytes(extra.bytes)} to download.
            <span class="muted">${extra.source.label}</span>
            <button type="button" ?disabled=${this.importing} @click=${() => void importController.startBuiltIn(this.db, extra.id, extra.title, extra.bytes)}>
              ${attachmentOf(extra.id) ? 'Load' : `Load and answer from it`}
            </button>
            ${
              attachmentOf(extra.id)
                ? html`<span class="muted">(for <a href="#/weeks">Every week</a> and each site's weeks; the active week stays as it is)</span>`
                : html`<span class="muted">(it becomes the active ${TITLES[extra.name] ?? extra.name} dataset: every view and badge then says its date)</span>`
            }
          </li>`,
        )}
      </ul>
    </section>`;
  }

  override render() {
    const s = this.status.value;
    return html`<div class="top">
        <h1 id="view-title" tabindex="-1">Datasets</h1>
        <div class="actions">
          <import-file-button></import-file-button>
          <button type="button" ?disabled=${!!this.busy} @click=${() => this.act('reload')}>
            ${this.busy === 'reload' ? 'Checking…' : 'Reload (fetch what changed)'}
          </button>
          <button type="button" ?disabled=${!!this.busy} @click=${() => this.act('reset')}>
            ${this.busy === 'reset' ? 'Downloading…' : 'Reset (download everything again)'}
          </button>
        </div>
      </div>
      <p role="status" aria-live="polite">${this.message}</p>
      <import-from-web .params=${this.params}></import-from-web>
      <dataset-choices></dataset-choices>
      <snapshot-diff .params=${this.params}></snapshot-diff>
      ${
        s
          ? html`<p class="muted">Manifest version <code>${s.version ?? '—'}</code> from <code>${s.dataUrl ?? '—'}</code></p>
            <div class="grid">${s.datasets.map((d) => this.card(d))}</div>
            ${this.extras(s.extras ?? [])}
            <storage-card></storage-card>`
          : html`<p class="muted">Reading the status…</p>`
      }
      <p class="note muted">
        The data lives in this browser: every search and listing is answered from these files by the engine in a background worker,
        with no network.
      </p>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'dataset-panel': DatasetPanel;
  }
}
