import { LitElement, html, css, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { dbContext } from '../../api/context.ts';
import type { DbClient } from '../../api/db-client.ts';
import { baseStyles } from '../common/styles.ts';
import { formatBytes, formatCount } from '../common/format.ts';
import { importController, type ImportState } from './import-controller.ts';
import { renderReport } from './import-report.ts';

const PHASES = { reading: 'Reading', inserting: 'Building the database', saving: 'Storing in this browser' } as const;

/** The running import (bytes of total, rows, Cancel) and then its outcome with the report, until dismissed. */
@customElement('import-status')
export class ImportStatus extends LitElement {
  static override styles = [
    baseStyles,
    css`
      .card {
        box-shadow: 0 6px 24px rgb(0 0 0 / 0.18);
        max-height: 70vh;
        overflow: auto;
      }
      .head {
        display: flex;
        justify-content: space-between;
        align-items: center;
        gap: 0.75rem;
      }
      .row {
        display: flex;
        justify-content: space-between;
        gap: 1rem;
        font-size: 0.85rem;
        margin: 0.5rem 0 0.3rem;
        font-variant-numeric: tabular-nums;
      }
      progress {
        width: 100%;
        height: 0.6rem;
      }
      .ok {
        color: var(--ok);
      }
      .warning {
        padding: 0.5rem 0.75rem;
        border: 1px solid var(--note-line);
        background: var(--note-bg);
        border-radius: 6px;
      }
      ul {
        margin: 0.25rem 0;
        padding-left: 1.2rem;
        font-size: 0.88rem;
      }
      details {
        margin-top: 0.4rem;
      }
      p {
        margin: 0.5rem 0;
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @state() private current: ImportState = importController.state;
  private unsubscribe: (() => void) | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.unsubscribe = importController.subscribe((s) => (this.current = s));
    this.current = importController.state;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
  }

  override render() {
    const s = this.current;
    if (s.kind === 'idle') return nothing;
    if (s.kind === 'running') {
      const p = s.progress;
      const total = p?.totalBytes ?? s.fileBytes;
      return html`<section class="card" aria-labelledby="import-title" data-state="running">
        <div class="head">
          <h2 id="import-title">Importing ${s.fileName}</h2>
          <button type="button" ?disabled=${s.cancelling} @click=${() => importController.cancel(this.db)}>${s.cancelling ? 'Cancelling…' : 'Cancel'}</button>
        </div>
        <div class="row">
          <span id="import-phase">${p ? PHASES[p.phase] : 'Starting'}…</span>
          <span data-progress-bytes>${formatBytes(p?.bytesRead ?? 0)}${total ? ` of ${formatBytes(total)}` : ''} · ${formatCount(p?.rowsImported ?? 0)} rows${p?.rowsRejected ? `, ${formatCount(p.rowsRejected)} rejected` : ''}</span>
        </div>
        ${
          total
            ? html`<progress aria-labelledby="import-phase" max=${total} .value=${p?.bytesRead ?? 0}></progress>`
            : html`<progress aria-labelledby="import-phase"></progress>`
        }
        <p class="muted">The dataset in use stays active until the import has finished.</p>
      </section>`;
    }
    const o = s.outcome;
    return html`<section class="card" aria-labelledby="import-title" data-state=${o.ok ? 'done' : 'failed'} data-code=${o.ok ? (o.notKept?.code ?? 'ok') : o.code}>
      <div class="head">
        <h2 id="import-title">${o.ok ? 'Imported' : 'Not imported'}: ${s.fileName}</h2>
        <button type="button" @click=${() => importController.dismiss()}>Dismiss</button>
      </div>
      ${
        o.ok && o.notKept
          ? html`<p class="warning" role="alert" data-message>${o.notKept.message}</p>`
          : o.ok
            ? o.imported.attachment
              ? html`<p class="ok" role="status" data-message>
                Every week is stored in this browser for offline use: see <a href="#/weeks">Every week</a> and each site's weeks. The
                websites dataset in use has not changed.
              </p>`
              : html`<p class="ok" role="status" data-message>
                ${o.imported.formatLabel}: now the active ${o.imported.dataset === 'websites' ? 'websites' : 'ceiling-rates'} dataset${
                  o.imported.dataset === 'websites' && o.imported.source?.kind === 'real'
                    ? html` (<strong>week of ${o.imported.source.date}</strong>)`
                    : nothing
                }, stored in this browser for offline use.
              </p>`
            : html`<p class="error" role="alert" data-message>${o.message}</p>`
      }
      ${o.report ? renderReport(o.report) : nothing}
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'import-status': ImportStatus;
  }
}
