import { LitElement, html, css, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { baseStyles } from '../common/styles.ts';
import { formatBytes } from '../common/format.ts';
import { PwaStateController } from '../../pwa/components/pwa-state-controller.ts';
import { storageFacts, type StorageFacts } from '../../pwa/storage-facts.ts';
import type { KeptFilesKind } from '../../../adapters/browser/kept-files.ts';

const PLACES: Record<KeptFilesKind, string> = {
  opfs: "the browser's private file system for this site",
  'opfs-sync': "the browser's private file system for this site",
  'opfs-read': "the browser's private file system for this site",
  cache: "the browser's cache storage for this site (this browser offers no private file system here)",
  indexeddb: "the browser's database for this site (IndexedDB: this browser offers no private file system here)",
  none: 'nowhere: this browser keeps no files for the app, so each opening decodes the downloaded data again',
};

/**
 * Whether the data kept on this machine will stay: where it is, how much is used, whether the storage is persistent,
 * what this browser may delete and when (Safari's 7-day rule), and installation where it keeps the data.
 */
@customElement('storage-card')
export class StorageCard extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
        margin-top: 1rem;
      }
      dl {
        display: grid;
        grid-template-columns: minmax(7rem, auto) 1fr;
        gap: 0.4rem 1rem;
        margin: 0.75rem 0 0;
      }
      dt {
        color: var(--muted);
      }
      dd {
        margin: 0;
      }
      .warn {
        padding: 0.5rem 0.75rem;
        border: 1px solid var(--note-line);
        background: var(--note-bg);
        border-radius: 6px;
        margin: 0.75rem 0 0;
      }
      button {
        margin-left: 0.5rem;
      }
      @media (max-width: 40rem) {
        dl {
          grid-template-columns: 1fr;
          gap: 0.15rem;
        }
        dd {
          margin-bottom: 0.5rem;
        }
        button {
          margin: 0.4rem 0 0;
        }
      }
    `,
  ];

  private readonly pwa = new PwaStateController(this);
  @state() private facts: StorageFacts | null = null;
  @state() private asking = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.read();
  }

  private async read(): Promise<void> {
    this.facts = await storageFacts();
  }

  /** A click is a user's gesture: a browser that refused quietly at first may grant it now, or ask. */
  private async askToKeep(): Promise<void> {
    this.asking = true;
    try {
      const persisted = (await navigator.storage?.persist?.()) ?? null;
      if (persisted !== null) this.pwa.pwa?.store.set({ persisted });
    } finally {
      this.asking = false;
      await this.read();
    }
  }

  private persistence(f: StorageFacts) {
    const persisted = this.pwa.state.persisted ?? f.persisted;
    if (persisted === null) return html`not said by this browser (it has no Storage API here)`;
    if (persisted) return html`<strong>yes</strong>: the browser will not delete it to make room`;
    return html`<strong>no</strong>: the browser may delete it when space runs short
      <button type="button" ?disabled=${this.asking} @click=${() => void this.askToKeep()}>Ask to keep it</button>`;
  }

  /** What this browser may delete, and what stops it. */
  private rule(f: StorageFacts) {
    if (f.sevenDayRule) {
      return f.installed
        ? html`<p class="muted" data-rule="installed">
            Installed: Safari keeps the app's data however long you stay away (its 7-day rule is for sites in a browser tab).
          </p>`
        : html`<p class="warn" data-rule="seven-days">
            <strong>Safari deletes everything this site keeps after 7 days of use without a visit</strong>, unless the app is installed: in
            Safari on a Mac, File › Add to Dock; on an iPhone or iPad, Share › Add to Home Screen. Then open it from there. Otherwise open it
            at least once a week, or it downloads its data again next time.
          </p>`;
    }
    return html`<p class="muted" data-rule="space">
      Without persistent storage, the browser may delete this site's data when the disk runs short (sites used least recently go first). The
      app then downloads it again when next opened, and says so.
    </p>`;
  }

  override render() {
    const f = this.facts;
    const { installAvailable } = this.pwa.state;
    return html`<section class="card" aria-labelledby="storage-title" data-storage>
      <h2 id="storage-title">Kept in this browser</h2>
      ${
        f
          ? html`<dl>
              <dt>Where</dt>
              <dd data-field="kept-in" data-kind=${f.keptIn}>In ${PLACES[f.keptIn]}, and the downloaded files in its cache.</dd>
              <dt>Used</dt>
              <dd data-field="usage">
                ${f.usage === null ? 'not said by this browser' : `${formatBytes(f.usage)}${f.quota ? ` of the ${formatBytes(f.quota)} it allows this site` : ''}`}
              </dd>
              <dt>Persistent</dt>
              <dd data-field="persisted">${this.persistence(f)}</dd>
            </dl>
            ${this.rule(f)}`
          : html`<p class="muted">Reading what this browser keeps…</p>`
      }
      ${
        installAvailable
          ? html`<p>
              Installed, the app opens in its own window, offline too, and the browser keeps its data as an installed app's.
              <button type="button" @click=${() => void this.pwa.pwa?.install()}>Install the app</button>
            </p>`
          : nothing
      }
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'storage-card': StorageCard;
  }
}
