import { LitElement, css, html } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { PwaStateController } from './pwa-state-controller.ts';

/**
 * "Update available — reload": shown when a new version waits. Reloading activates it (skipWaiting on
 * the user's word); "Later" hides the prompt until the next visit, when the new version still waits.
 */
@customElement('pwa-update-prompt')
export class PwaUpdatePrompt extends LitElement {
  @state() private dismissed = false;
  @state() private applying = false;
  private readonly pwa = new PwaStateController(this);

  static override styles = css`
    .toast { position: fixed; inset: auto 1rem 1rem auto; z-index: 1000; max-width: 22rem; display: flex; gap: 0.75rem; align-items: center;
      padding: 0.75rem 1rem; border-radius: 0.5rem; background: #1f2328; color: #fff; box-shadow: 0 4px 16px rgb(0 0 0 / 0.25); }
    button { font: inherit; padding: 0.3em 0.8em; border-radius: 0.4em; border: 1px solid #fff; cursor: pointer; }
    .primary { background: #fff; color: #1f2328; }
    .secondary { background: transparent; color: #fff; }
    button:focus-visible { outline: 2px solid #54aeff; outline-offset: 2px; }
  `;

  override render() {
    if (!this.pwa.state.updateWaiting || this.dismissed) return html``;
    return html`<div class="toast" role="region" aria-label="Update" aria-live="polite">
      <span>Update available.</span>
      <button type="button" class="primary" ?disabled=${this.applying} @click=${this.reload}>Reload</button>
      <button type="button" class="secondary" @click=${() => (this.dismissed = true)}>Later</button>
    </div>`;
  }

  private reload(): void {
    this.applying = true;
    this.pwa.pwa?.applyUpdate();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pwa-update-prompt': PwaUpdatePrompt;
  }
}
