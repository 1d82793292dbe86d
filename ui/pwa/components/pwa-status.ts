import { LitElement, css, html } from 'lit';
import { customElement } from 'lit/decorators.js';
import { PwaStateController } from './pwa-state-controller.ts';

/** "Offline ready" indicator: whether the app and both datasets are on this machine, and kept there. */
@customElement('pwa-status')
export class PwaStatus extends LitElement {
  private readonly pwa = new PwaStateController(this);

  static override styles = css`
    :host { display: inline-flex; align-items: center; gap: 0.4em; font-size: 0.875rem; }
    .dot { display: inline-block; width: 0.6em; height: 0.6em; margin-right: 0.3em; border-radius: 50%; background: #b38600; }
    :host([ready]) .dot { background: #1a7f37; }
    .muted { color: #57606a; }
  `;

  override updated(): void {
    this.toggleAttribute('ready', this.pwa.state.offlineReady);
  }

  override render() {
    const { offlineReady, persisted, error } = this.pwa.state;
    const label = error ? `Offline unavailable: ${error}` : offlineReady ? 'Offline ready' : 'Saving for offline use…';
    const title = persisted === null ? '' : persisted ? 'Storage is persistent' : 'The browser may clear this storage under pressure';
    return html`<span role="status" title=${title}>
      <span class="dot" aria-hidden="true"></span>
      <span class="label">${label}</span>
      ${persisted === false ? html`<span class="muted">(storage not persistent)</span>` : ''}
    </span>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pwa-status': PwaStatus;
  }
}
