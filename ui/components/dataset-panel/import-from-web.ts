import { LitElement, html, css } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { dbContext } from '../../api/context.ts';
import type { DbClient } from '../../api/db-client.ts';
import { baseStyles } from '../common/styles.ts';
import { importController, type ImportState } from '../import/import-controller.ts';
import { navigate } from '../../state/route.ts';
import { OFFICIAL_SOURCES } from '../../config/sources.ts';

/** The route parameter that imports a file by URL: `#/datasets?import=<url>`, as Datasette Lite's `?csv=`. */
export const IMPORT_PARAM = 'import';

/**
 * Imports a file from the web: an address typed in, one given in the route (`?import=`), or the published
 * source of each API (ui/config/sources.ts). The DB worker fetches and imports it; the import card shows the
 * progress and the outcome, and the active dataset stays until the new one is stored.
 */
@customElement('import-from-web')
export class ImportFromWeb extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
        margin-bottom: 1rem;
      }
      button {
        white-space: normal;
        text-align: left;
      }
      form {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        align-items: end;
      }
      label {
        display: grid;
        gap: 0.25rem;
        flex: 1 1 18rem;
        min-width: 0;
      }
      input {
        width: 100%;
        box-sizing: border-box;
      }
      .sources {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        margin-top: 0.75rem;
      }
      h2 {
        margin-top: 0;
      }
      p {
        margin: 0.4rem 0;
        font-size: 0.9rem;
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  /** The route's query: `import` starts an import of that URL once. */
  @property({ attribute: false }) params = new URLSearchParams();
  @state() private running = importController.state.kind === 'running';
  @state() private online = navigator.onLine;
  private unsubscribe: (() => void) | null = null;

  private readonly onConnectivity = () => (this.online = navigator.onLine);

  override connectedCallback(): void {
    super.connectedCallback();
    this.unsubscribe = importController.subscribe((s: ImportState) => (this.running = s.kind === 'running'));
    window.addEventListener('online', this.onConnectivity);
    window.addEventListener('offline', this.onConnectivity);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
    window.removeEventListener('online', this.onConnectivity);
    window.removeEventListener('offline', this.onConnectivity);
  }

  override updated(changed: Map<string, unknown>): void {
    if (!changed.has('params')) return;
    const url = this.params.get(IMPORT_PARAM);
    if (!url) return;
    // Taken out of the address at once: a reload or Back must not import the file a second time.
    const rest = new URLSearchParams(this.params);
    rest.delete(IMPORT_PARAM);
    navigate({ view: 'datasets', query: rest }, { replace: true });
    void importController.startUrl(this.db, url);
  }

  private submit(event: SubmitEvent): void {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem('url') as HTMLInputElement;
    const url = input.value.trim();
    if (url) void importController.startUrl(this.db, url);
  }

  override render() {
    const busy = this.running;
    return html`<section class="card" aria-labelledby="web-import-title">
      <h2 id="web-import-title">Import from the web</h2>
      <form @submit=${this.submit}>
        <label>
          File address (CSV or JSON, http or https)
          <input name="url" type="url" inputmode="url" autocomplete="url" placeholder="https://…" required />
        </label>
        <button type="submit" ?disabled=${busy}>Import from address</button>
      </form>
      <div class="sources">
        ${OFFICIAL_SOURCES.map(
          (source) =>
            html`<button
              type="button"
              data-source=${source.dataset}
              ?disabled=${busy || !this.online}
              title=${source.url}
              @click=${() => void importController.startUrl(this.db, source.url)}
            >
              Update ${source.dataset === 'websites' ? 'websites' : 'ceiling rates'} from source
            </button>`,
        )}
      </div>
      <p class="muted">
        ${OFFICIAL_SOURCES.map((source) => html`Source of ${source.dataset === 'websites' ? 'websites' : 'ceiling rates'}: ${source.publisher}. `)}
        ${this.online ? 'The file is downloaded by this app and checked like a picked file; the dataset in use stays active until the new one is stored.' : 'Offline: updating from the source needs a connection.'}
        The server must allow this app to read the file (CORS); if it does not, download the file and import it instead.
      </p>
      <p class="muted" data-rates-source>
        Ceiling rates: production publishes no bulk file this app can read (its search API needs an API key and gives
        at most 10,000 rows a request). To use real rates, export them from CALC+ (calc.gsa.gov: search, then “Export
        data (CSV)”), then drop the file on this app or pass it to the command line:
        <code>npx offline-gov-api serve --ceilingrates your-export.csv</code>. The built-in 2017 Schedule 70 price list
        (real, on the Datasets page) can be loaded without a connection to the source.
      </p>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'import-from-web': ImportFromWeb;
  }
}
