import { LitElement, html, css, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { baseStyles } from '../common/styles.ts';
import { formatBytes } from '../common/format.ts';
import type { LoadProgress } from '../../api/db-client.ts';
import { datasetLines } from './download-text.ts';
import { PwaStateController } from '../../pwa/components/pwa-state-controller.ts';
import { isSafariEngine } from '../../pwa/storage-facts.ts';

const TITLES: Record<string, string> = { websites: 'the websites', ceilingrates: 'the ceiling rates' };

const PHASES: Record<LoadProgress['phase'], string> = {
  manifest: 'Reading the manifest',
  download: 'Downloading',
  verify: 'Checking',
  decompress: 'Unpacking',
  open: 'Opening',
  ready: 'Ready',
  error: 'Failed',
};

/** The data download as bytes of total, with what the worker is doing now. */
@customElement('load-progress')
export class LoadProgressBar extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
        background: var(--surface);
        border-bottom: 1px solid var(--line);
        padding: 0.5rem 1.25rem;
      }
      .row {
        display: flex;
        justify-content: space-between;
        gap: 1rem;
        font-size: 0.85rem;
        margin-bottom: 0.3rem;
      }
      .gone {
        margin: 0 0 0.4rem;
        padding: 0.4rem 0.75rem;
        border: 1px solid var(--note-line);
        background: var(--note-bg);
        border-radius: 6px;
        font-size: 0.85rem;
      }
      ul {
        list-style: none;
        margin: 0 0 0.3rem;
        padding: 0;
        font-size: 0.85rem;
      }
      progress {
        width: 100%;
        height: 0.5rem;
        appearance: none;
        border: none;
        border-radius: 999px;
        overflow: hidden;
        background: var(--line);
      }
      progress::-webkit-progress-bar {
        background: var(--line);
      }
      progress::-webkit-progress-value {
        background: var(--accent);
        transition: width 0.2s;
      }
    `,
  ];

  @property({ attribute: false }) progress: LoadProgress | null = null;
  private readonly pwa = new PwaStateController(this);

  /** Kept data that is gone: why, and that it is being downloaded again (the lines below show how far). */
  private gone() {
    const since = this.pwa.state.dataGoneSince;
    if (!since) return nothing;
    const why = isSafariEngine(navigator.userAgent)
      ? 'Safari deletes what a site keeps after 7 days of use without a visit, unless the app is installed (see Datasets)'
      : 'the browser deleted it, as browsers do to make room when storage is not persistent (see Datasets)';
    return html`<p class="gone" role="status" data-data-gone>
      The data kept in this browser since ${new Date(since).toLocaleDateString()} is gone: ${why}. It is being downloaded again.
    </p>`;
  }

  override render() {
    const p = this.progress;
    if (!p) return nothing;
    const what = p.dataset ? `${PHASES[p.phase]} ${TITLES[p.dataset]}` : PHASES[p.phase];
    // Each dataset in words (which one answers already, which is still on its way, where a download resumed).
    const lines = datasetLines(p);
    return html`${this.gone()}<div class="row">
        <span id="progress-label">Loading the data: ${what}…</span>
        <span class="muted">${p.total ? `${formatBytes(p.loaded)} of ${formatBytes(p.total)}` : ''}</span>
      </div>
      ${
        lines.length
          ? html`<ul aria-live="polite">
            ${lines.map((line) => html`<li data-dataset=${line.name} data-ready=${line.ready ? 'yes' : 'no'}>${line.text}</li>`)}
          </ul>`
          : nothing
      }
      <progress aria-labelledby="progress-label" max=${p.total || 1} .value=${p.total ? p.loaded : 0}></progress>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'load-progress': LoadProgressBar;
  }
}
