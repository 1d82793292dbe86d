import { LitElement, css, html } from 'lit';
import { customElement } from 'lit/decorators.js';
import { PwaStateController } from './pwa-state-controller.ts';

/** "Install app": present only while the browser offers installation. */
@customElement('pwa-install-button')
export class PwaInstallButton extends LitElement {
  private readonly pwa = new PwaStateController(this);

  static override styles = css`
    :host { display: contents; }
    button { font: inherit; padding: 0.3em 0.8em; border-radius: 0.4em; border: 1px solid currentColor; background: transparent; color: inherit; cursor: pointer; }
    button:focus-visible { outline: 2px solid #0969da; outline-offset: 2px; }
  `;

  override render() {
    if (!this.pwa.state.installAvailable) return html``;
    return html`<button type="button" @click=${() => void this.pwa.pwa?.install()}>Install app</button>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pwa-install-button': PwaInstallButton;
  }
}
