import { LitElement, html, css, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { dbContext } from '../../api/context.ts';
import type { DbClient, WorkerRecovery } from '../../api/db-client.ts';
import { baseStyles } from '../common/styles.ts';

/**
 * Says so when the DB worker was lost and replaced (docs/decisions/0801): while the data is opened again,
 * once it is open (a view that showed an error asks again by itself), or that the client gave up.
 */
@customElement('worker-notice')
export class WorkerNotice extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
      }
      p {
        margin: 1rem 1.25rem 0;
        padding: 0.6rem 0.9rem;
        border: 1px solid var(--note-line);
        background: var(--note-bg);
        border-radius: 6px;
        display: flex;
        gap: 1rem;
        align-items: center;
        flex-wrap: wrap;
      }
      p.failed {
        border-color: var(--danger);
        background: var(--danger-bg);
      }
      button {
        margin-left: auto;
      }
    `,
  ];

  @consume({ context: dbContext })
  db!: DbClient;

  @state() private recovery: WorkerRecovery | null = null;
  private unsubscribe: (() => void) | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.unsubscribe = this.db.onRecovery((recovery) => (this.recovery = recovery));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
  }

  private message(r: WorkerRecovery): string {
    const lost =
      r.failedRequests === 1
        ? ' One request it was answering got an error.'
        : r.failedRequests > 1
          ? ` ${r.failedRequests} requests it was answering got an error.`
          : '';
    switch (r.phase) {
      case 'restarting':
        return `The data worker stopped (${r.reason}). Starting a new one and opening the data again…${lost}`;
      case 'recovered':
        return `The data worker stopped (${r.reason}) and was replaced: the data is open again.${lost}`;
      case 'failed':
        return `The data worker keeps stopping: ${r.reason}.`;
    }
  }

  override render() {
    const r = this.recovery;
    if (!r) return nothing;
    return html`<p class=${r.phase} role=${r.phase === 'failed' ? 'alert' : 'status'} data-phase=${r.phase}>
      <span>${this.message(r)}</span>
      ${r.phase === 'recovered' ? html`<button type="button" @click=${() => (this.recovery = null)}>Dismiss</button>` : nothing}
    </p>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'worker-notice': WorkerNotice;
  }
}
