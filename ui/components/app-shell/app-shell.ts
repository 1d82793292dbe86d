import { LitElement, html, css, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { keyed } from 'lit/directives/keyed.js';
import { provide } from '@lit/context';
import { dbContext } from '../../api/context.ts';
import { pwaContext, type PwaController } from '../../pwa/context.ts';
import '../../pwa/components/index.ts';
import type { DbClient, LoadProgress } from '../../api/db-client.ts';
import { baseStyles } from '../common/styles.ts';
import { navigate, RouteController, type ViewName } from '../../state/route.ts';
import './load-progress.ts';
import './worker-notice.ts';
import '../rates-view/rates-view.ts';
import '../websites-view/websites-view.ts';
import '../websites-view/website-detail.ts';
import '../weeks-view/weeks-view.ts';
import '../dataset-panel/dataset-panel.ts';
import '../import/import-drop-zone.ts';

/** The API console is loaded on first visit to its view: most sessions never open it. */
const loadConsole = () => import('../api-console/api-console.ts');

const NAV: { view: ViewName; href: string; label: string; short: string; also?: ViewName[] }[] = [
  { view: 'rates', href: '#/rates', label: 'Ceiling rates', short: 'Rates' },
  { view: 'websites', href: '#/websites', label: 'Websites', short: 'Websites', also: ['website'] },
  { view: 'weeks', href: '#/weeks', label: 'Every week', short: 'Weeks' },
  { view: 'datasets', href: '#/datasets', label: 'Datasets', short: 'Datasets' },
  { view: 'console', href: '#/console', label: 'API console', short: 'Console' },
];

/** Header, navigation, the data-loading bar and the current view; provides the DB client to all views. */
@customElement('app-shell')
export class AppShell extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host {
        min-height: 100vh;
        display: flex;
        flex-direction: column;
      }
      .skip {
        position: absolute;
        left: -999px;
        top: 0.5rem;
        background: var(--surface);
        padding: 0.5rem 0.75rem;
        border-radius: 6px;
        z-index: 100;
      }
      .skip:focus {
        left: 0.5rem;
      }
      header {
        background: var(--header);
        color: #fff;
        display: flex;
        align-items: center;
        gap: 1.5rem;
        padding: 0 1.25rem;
        min-height: 3.25rem;
        flex-wrap: wrap;
      }
      .brand {
        font-weight: 700;
        letter-spacing: 0.01em;
        display: flex;
        align-items: center;
        gap: 0.5rem;
        white-space: nowrap;
      }
      .brand small {
        font-weight: 400;
        opacity: 0.75;
      }
      nav ul {
        display: flex;
        gap: 0.25rem;
        list-style: none;
        margin: 0;
        padding: 0;
        flex-wrap: wrap;
      }
      nav a {
        display: block;
        color: #fff;
        text-decoration: none;
        padding: 0.95rem 0.75rem 0.8rem;
        border-bottom: 3px solid transparent;
        opacity: 0.9;
      }
      nav a:hover {
        opacity: 1;
        background: rgb(255 255 255 / 0.08);
      }
      nav a[aria-current='page'] {
        border-bottom-color: var(--header-accent);
        opacity: 1;
        font-weight: 600;
      }
      nav a:focus-visible {
        outline: 3px solid var(--header-accent);
        outline-offset: -3px;
      }
      .slot {
        margin-left: auto;
        display: flex;
        align-items: center;
        gap: 0.5rem;
      }
      .short {
        display: none;
      }
      main {
        flex: 1;
        padding: 1.25rem;
        max-width: 1440px;
        width: 100%;
        margin: 0 auto;
      }
      main[tabindex]:focus,
      main[tabindex]:focus-visible {
        outline: none;
      }
      footer {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        align-items: center;
        padding: 0.6rem 1.25rem;
        border-top: 1px solid var(--line);
        background: var(--surface);
        font-size: 0.85rem;
      }
      .error {
        margin: 1rem 1.25rem 0;
      }
      @media (max-width: 600px) {
        header {
          gap: 0;
          padding: 0 0.5rem;
        }
        .brand {
          padding: 0.6rem 0.25rem 0;
          width: 100%;
        }
        nav a {
          padding: 0.55rem 0.45rem;
          font-size: 0.92rem;
        }
        nav ul {
          gap: 0;
        }
        .long {
          display: none;
        }
        .short {
          display: inline;
        }
        main {
          padding: 0.75rem;
        }
      }
    `,
  ];

  @provide({ context: dbContext })
  @property({ attribute: false })
  db!: DbClient;

  @provide({ context: pwaContext })
  @property({ attribute: false })
  pwa: PwaController | null = null;

  @state() private progress: LoadProgress | null = null;
  @state() private loadError = '';
  @state() private consoleReady = false;
  /** Bumped when the active dataset is replaced (an import, a switch): the view is drawn anew and asks again. */
  @state() private dataGeneration = 0;
  private readonly router = new RouteController(this);
  private lastView: ViewName | null = null;
  private unsubscribe: (() => void) | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.unsubscribe = this.db.onProgress((p) => this.onProgress(p));
    this.onProgress(this.db.lastProgress());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
  }

  private onProgress(p: LoadProgress | null): void {
    if (!p) return;
    if (p.replaced) {
      this.dataGeneration++;
      return;
    }
    if (p.phase === 'error') this.loadError = p.message ?? 'The data failed to load.';
    else if (p.phase === 'manifest') this.loadError = '';
    // The whole load is done when the manifest-level step says ready.
    this.progress = p.phase === 'ready' && p.dataset === null ? null : p.phase === 'error' ? this.progress : p;
    if (p.phase === 'error' && p.dataset === null) this.progress = null;
  }

  override willUpdate(): void {
    if (this.router.route.view === 'console' && !this.consoleReady) {
      void loadConsole().then(() => (this.consoleReady = true));
    }
  }

  override updated(): void {
    const view = this.router.route.view;
    if (view !== this.lastView) {
      const first = this.lastView === null;
      this.lastView = view;
      document.title = `${NAV.find((n) => n.view === view || n.also?.includes(view))?.label ?? 'Not found'} · Offline Gov Data`;
      // Moving to another view moves keyboard focus to its heading, so screen readers announce it.
      if (!first) requestAnimationFrame(() => this.focusHeading());
    }
  }

  private focusHeading(): void {
    const view = this.renderRoot.querySelector('main')?.firstElementChild;
    const heading = view?.shadowRoot?.querySelector<HTMLElement>('#view-title');
    (heading ?? this.renderRoot.querySelector<HTMLElement>('main'))?.focus();
  }

  private view() {
    const route = this.router.route;
    switch (route.view) {
      case 'rates':
        return html`<rates-view .params=${route.query}></rates-view>`;
      case 'websites':
        return html`<websites-view .params=${route.query}></websites-view>`;
      case 'website':
        return html`<website-detail .url=${route.url}></website-detail>`;
      case 'weeks':
        return html`<weeks-view .params=${route.query}></weeks-view>`;
      case 'datasets':
        return html`<dataset-panel .params=${route.query}></dataset-panel>`;
      case 'console':
        // The console keeps its request in the hash (`#/console?request=/websites%3Flimit%3D3`) so it can be shared.
        return this.consoleReady
          ? html`<api-console
              .request=${route.query.get('request') ?? ''}
              @api-console-change=${(e: CustomEvent<{ request: string }>) =>
                navigate({ view: 'console', query: new URLSearchParams({ request: e.detail.request }) }, { replace: true })}
            ></api-console>`
          : nothing;
      case 'not-found':
        return html`<div>
          <h1 id="view-title" tabindex="-1">Page not found</h1>
          <p>There is no view at <code>#${route.hash}</code>. <a href="#/rates">Go to the ceiling rates</a>.</p>
        </div>`;
    }
  }

  override render() {
    const current = this.router.route.view;
    return html`<a class="skip" href="#main" @click=${(e: Event) => {
      e.preventDefault();
      this.focusHeading();
    }}>Skip to content</a>
      <header>
        <div class="brand">Offline Gov Data <small>Site Scanning · Ceiling Rates</small></div>
        <nav aria-label="Views">
          <ul>
            ${NAV.map(
              (n) => html`<li>
                <a href=${n.href} aria-current=${n.view === current || n.also?.includes(current) ? 'page' : nothing}
                  ><span class="long">${n.label}</span><span class="short">${n.short}</span></a
                >
              </li>`,
            )}
          </ul>
        </nav>
        <div class="slot"><slot name="header-end"></slot></div>
      </header>
      ${this.progress ? html`<load-progress .progress=${this.progress}></load-progress>` : nothing}
      ${this.loadError ? html`<p class="error" role="alert">The data could not be loaded: ${this.loadError}</p>` : nothing}
      <worker-notice></worker-notice>
      <main id="main" tabindex="-1">${current === 'datasets' ? this.view() : keyed(this.dataGeneration, this.view())}</main>
      <import-drop-zone></import-drop-zone>
      <footer>
        <pwa-status></pwa-status>
        <pwa-install-button></pwa-install-button>
        <pwa-update-prompt></pwa-update-prompt>
        <span class="muted">Answers come from data held in this browser: no network needed once loaded.</span>
      </footer>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'app-shell': AppShell;
  }
}
