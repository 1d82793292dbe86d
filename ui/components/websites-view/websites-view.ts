import { LitElement, html, css, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task, TaskStatus } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DatasetStatus, DbClient } from '../../api/db-client.ts';
import { errorText, type AnalysisResponse, type WebsitesResponse } from '../../api/api-types.ts';
import { baseStyles, viewHeaderStyles, statStyles } from '../common/styles.ts';
import { formatCount, formatDay } from '../common/format.ts';
import { formatRoute, navigate } from '../../state/route.ts';
import {
  analysisApiUrl,
  LIMITS,
  parseWebsitesQuery,
  rememberListHash,
  websitesApiUrl,
  websitesFilterQuery,
  websitesHashParams,
  type RollupGroup,
  type WebsitesQuery,
} from '../../state/websites-query.ts';
import './website-rollups.ts';
import type { RollupChangeEvent, RollupExportEvent } from './website-rollups.ts';
import { rollupCsv } from './rollup-model.ts';
import '../common/page-nav.ts';
import './websites-filters.ts';
import type { PageChangeEvent } from '../common/page-nav.ts';
import type { WebsiteFiltersChangeEvent } from './websites-filters.ts';
import '../common/source-badge.ts';
import { saveBytes } from '../common/save-file.ts';
import { matchingWebsites, websitesCsv, WEBSITES_CSV_MAX } from '../../state/websites-csv.ts';
import { sourceDate } from '../../../dataset/artifact/format.ts';
import type { WebsitePage } from '../../../engine/site-scanning/shape.ts';
import { ReloadOnReady, readyOf } from '../common/reload-on-ready.ts';
import { filterToggle } from '../common/filter-toggle.ts';

async function getOk<T>(db: DbClient, url: string): Promise<T> {
  const r = await db.getJson<T>(url);
  if (r.status !== 200) throw new Error(errorText(r.status, r.body));
  return r.body;
}

/** The Site Scanning listing: filters, `/analysis` figures for them, and the paged table. */
@customElement('websites-view')
export class WebsitesView extends LitElement {
  static override styles = [
    baseStyles,
    viewHeaderStyles,
    statStyles,
    css`
      .stats {
        display: grid;
        grid-template-columns: repeat(3, minmax(0, 1fr));
        gap: 0.5rem;
        margin: 0.75rem 0;
      }
      .table-wrap {
        margin-bottom: 0.75rem;
      }
      .count-row {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        align-items: center;
        justify-content: space-between;
      }
      website-rollups {
        margin-bottom: 0.75rem;
      }
      td.url {
        font-weight: 500;
        overflow-wrap: anywhere;
        min-width: 10rem;
      }
      td.final {
        overflow-wrap: anywhere;
        min-width: 12rem;
        max-width: 20rem;
      }
      td.date {
        white-space: nowrap;
      }
      .status-ok {
        background: var(--ok-bg);
        border-color: var(--ok);
      }
      .status-fail {
        background: var(--danger-bg);
        border-color: var(--danger);
      }
      tbody tr:nth-child(even) td {
        background: var(--surface-2);
      }
      .pending {
        opacity: 0.65;
      }
      .sub {
        display: none;
        color: var(--muted);
        font-size: 0.8rem;
        font-weight: 400;
      }
      .filter-toggle,
      .rollup-toggle {
        display: none;
        margin-bottom: 0.5rem;
      }
      @media (max-width: 600px) {
        .wide-only {
          display: none;
        }
        .sub {
          display: block;
        }
        .filter-toggle,
        .rollup-toggle {
          display: inline-block;
        }
        .filters.collapsed websites-filters,
        .rollups.collapsed website-rollups {
          display: none;
        }
        .stat dd {
          font-size: 1.1rem;
        }
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @property({ attribute: false }) params = new URLSearchParams();
  @state() private filtersOpen = false;
  /** On a phone the roll-up waits behind a button, so the count of matching sites is in view without scrolling. */
  @state() private rollupOpen = false;
  @state() private exporting = false;
  @state() private exportProgress: { read: number; total: number } | null = null;
  @state() private exportError = '';
  private query: WebsitesQuery = parseWebsitesQuery(new URLSearchParams());

  private readonly owners = new Task(this, {
    task: async ([db]: [DbClient]) => db.websiteOwners(),
    args: () => [this.db] as [DbClient],
  });

  private readonly list = new Task(this, {
    task: async ([url]: [string]) => ({ url, body: await getOk<WebsitesResponse>(this.db, url) }),
    args: () => [websitesApiUrl(this.query)] as [string],
  });

  private readonly analysis = new Task(this, {
    task: async ([url]: [string]) => getOk<AnalysisResponse>(this.db, url),
    args: () => [analysisApiUrl(this.query)] as [string],
  });

  /** The matching websites rolled up by owner (the DB worker's, not an API answer). */
  private readonly rollups = new Task(this, {
    task: async ([query, group]: [string, RollupGroup]) => {
      const answer = await this.db.websiteRollups(query, group);
      // A bad filter is reported once, by the listing.
      if (!answer.ok) throw new Error(answer.message);
      return { key: `${group}|${query}`, rollups: answer.rollups };
    },
    args: () => [websitesFilterQuery(this.query), this.query.rollup.group] as [string, RollupGroup],
  });

  // A dataset that failed and was loaded again (Datasets → Reload): ask again what failed.
  private readonly reloadOnReady = new ReloadOnReady(
    this,
    () => this.db,
    () => {
      if (this.list.status === TaskStatus.ERROR) void this.list.run();
      if (this.analysis.status === TaskStatus.ERROR) void this.analysis.run();
      if (this.rollups.status === TaskStatus.ERROR) void this.rollups.run();
      void this.owners.run();
    },
    { when: readyOf('websites') },
  );

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('params')) {
      this.query = parseWebsitesQuery(this.params);
      rememberListHash(formatRoute({ view: 'websites', query: websitesHashParams(this.query) }));
    }
  }

  override updated(): void {
    const rendered = this.list.value?.url ?? '';
    if (this.getAttribute('data-rendered-url') !== rendered) this.setAttribute('data-rendered-url', rendered);
    const rolled = this.rollups.value?.key ?? '';
    if (this.getAttribute('data-rendered-rollup') !== rolled) {
      void this.renderRoot.querySelector('website-rollups')?.updateComplete.then(() => this.setAttribute('data-rendered-rollup', rolled));
    }
  }

  private go(q: WebsitesQuery): void {
    navigate({ view: 'websites', query: websitesHashParams(q) });
  }

  /** Sorting or regrouping the roll-up; picking an owner filters the list to it. */
  private onRollup(e: RollupChangeEvent): void {
    const q = this.query;
    const rollup = { ...q.rollup, ...e.rollup };
    if (e.rollup.group && e.rollup.group !== q.rollup.group) Object.assign(rollup, { order: 'sites', dir: 'desc' });
    const filters = { ...q.filters };
    if (e.owner) filters[e.owner.group] = e.owner.name;
    // Back to agencies: the bureau and agency picked by drilling down no longer apply.
    if (e.rollup.group === 'target_url_agency_owner' && !e.owner) {
      delete filters.target_url_bureau_owner;
      delete filters.target_url_agency_owner;
    }
    this.go({ ...q, filters, page: e.owner ? 1 : q.page, rollup });
  }

  private async websitesStatus(): Promise<DatasetStatus | undefined> {
    return (await this.db.status()).datasets.find((d) => d.name === 'websites');
  }

  /** An export's header rows: the query, the snapshot's date and where the records come from. */
  private exportNotes(status: DatasetStatus | undefined): [string, string][] {
    // The week's own date (a real snapshot's); an import's file date otherwise, never when this browser opened it.
    const date = status?.source?.kind === 'synthetic' ? 'none (generated data)' : (sourceDate(status?.source ?? null) ?? status?.fileDate ?? 'unknown');
    return [
      ['Query', websitesFilterQuery(this.query) || '(no filters: every site)'],
      ['Snapshot date', date],
      ['Source', status?.source?.label ?? (status?.importName ? `Your file: ${status.importName}` : 'unknown')],
      ['Exported', new Date().toISOString()],
    ];
  }

  /** The roll-up as shown (its order), with the same header rows as the list's export. */
  private async exportRollup(e: RollupExportEvent): Promise<void> {
    const rollups = this.rollups.value?.rollups;
    if (!rollups) return;
    const status = await this.websitesStatus();
    const csv = rollupCsv(rollups, e.rows, e.ownerLabel, this.exportNotes(status));
    const date = sourceDate(status?.source ?? null) ?? new Date().toISOString().slice(0, 10);
    saveBytes(new TextEncoder().encode(csv), `websites-by-${e.ownerLabel.toLowerCase()}-${date}.csv`, 'text/csv;charset=utf-8');
  }

  /** Every matching site (not just the page shown, up to WEBSITES_CSV_MAX), with the query and the data's source on top. */
  private async exportCsv(): Promise<void> {
    this.exporting = true;
    this.exportError = '';
    this.exportProgress = null;
    try {
      const q = this.query;
      const status = await this.websitesStatus();
      const { items, total } = await matchingWebsites(
        (url) => getOk<WebsitePage>(this.db, url),
        q,
        WEBSITES_CSV_MAX,
        (read, of) => (this.exportProgress = { read, total: of }),
      );
      const csv = websitesCsv(items, total, this.exportNotes(status));
      saveBytes(
        new TextEncoder().encode(csv),
        `websites-${sourceDate(status?.source ?? null) ?? new Date().toISOString().slice(0, 10)}.csv`,
        'text/csv;charset=utf-8',
      );
    } catch (error) {
      this.exportError = `Export failed: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.exporting = false;
    }
  }

  private figures() {
    const a = this.analysis.value;
    return html`<dl class="stats" aria-label="Analysis of the matching websites">
      <div class="stat"><dt>Websites</dt><dd data-figure="total">${formatCount(a?.total)}</dd></div>
      <div class="stat"><dt>Final base domains</dt><dd data-figure="domains">${formatCount(a?.totalFinalUrlBaseDomains)}</dd></div>
      <div class="stat"><dt>Agencies</dt><dd data-figure="agencies">${formatCount(a?.totalAgencies)}</dd></div>
    </dl>`;
  }

  private table(data: WebsitesResponse, pending: boolean) {
    const q = this.query;
    const m = data.meta;
    return html`<div class=${pending ? 'pending' : ''}>
      <div class="count-row">
        <p role="status" aria-live="polite">
          <strong>${formatCount(m.totalItems)}</strong> ${m.totalItems === 1 ? 'website matches' : 'websites match'}
        </p>
        <button
          type="button"
          @click=${this.exportCsv}
          ?disabled=${this.exporting || m.totalItems === 0}
          title=${`Every matching site (at most ${formatCount(WEBSITES_CSV_MAX)}), with the query, the snapshot's date and the source at the top`}
        >
          ${this.exporting ? 'Exporting…' : `Export CSV (all ${formatCount(Math.min(m.totalItems, WEBSITES_CSV_MAX))})`}
        </button>
      </div>
      ${
        m.totalItems > WEBSITES_CSV_MAX
          ? html`<p class="muted">An export holds the first ${formatCount(WEBSITES_CSV_MAX)} sites: narrow the filters for the rest.</p>`
          : nothing
      }
      ${
        this.exporting && this.exportProgress
          ? html`<p>
              <label for="export-bar">Reading the sites: ${formatCount(this.exportProgress.read)} of ${formatCount(this.exportProgress.total)}</label>
              <progress id="export-bar" max=${this.exportProgress.total || 1} .value=${this.exportProgress.read}></progress>
            </p>`
          : nothing
      }
      ${this.exportError ? html`<p class="error" role="alert">${this.exportError}</p>` : nothing}
      <div class="table-wrap" aria-busy=${pending ? 'true' : 'false'}>
        <table id="websites-table">
          <caption class="visually-hidden">Websites matching the filters</caption>
          <thead>
            <tr>
              <th scope="col">Target URL</th>
              <th scope="col" class="wide-only">Agency</th>
              <th scope="col" class="wide-only">Bureau</th>
              <th scope="col">Scan status</th>
              <th scope="col" class="wide-only">Final URL</th>
              <th scope="col">Live</th>
              <th scope="col" class="num wide-only">HTTP</th>
              <th scope="col" class="wide-only">DAP</th>
              <th scope="col" class="wide-only">Scanned</th>
            </tr>
          </thead>
          <tbody>
            ${data.items.map(
              (w) => html`<tr>
                <td class="url">
                  <a href=${formatRoute({ view: 'website', url: w.target_url })}>${w.target_url}</a>
                  <span class="sub">${w.target_url_agency_owner ?? ''}</span>
                </td>
                <td class="wide-only">${w.target_url_agency_owner ?? '—'}</td>
                <td class="wide-only">${w.target_url_bureau_owner ?? '—'}</td>
                <td><span class="chip ${w.scan_status === 'completed' ? 'status-ok' : 'status-fail'}">${w.scan_status}</span></td>
                <td class="final wide-only">${w.final_url ?? '—'}</td>
                <td>${yesNo(w.final_url_live)}</td>
                <td class="num wide-only">${w.final_url_status_code ?? '—'}</td>
                <td class="wide-only">${yesNo(w.dap_detected_final_url)}</td>
                <td class="date wide-only">${w.scan_date ? formatDay(w.scan_date) : '—'}</td>
              </tr>`,
            )}
          </tbody>
        </table>
        ${data.items.length ? nothing : html`<p class="muted" style="padding:1.5rem;text-align:center">No websites match.</p>`}
      </div>
      <page-nav
        label="Website pages"
        .page=${q.page}
        .pages=${Math.max(1, m.totalPages)}
        .pageSize=${q.limit}
        .sizes=${LIMITS}
        @page-change=${(e: PageChangeEvent) => this.go({ ...q, page: e.page, limit: e.pageSize })}
      ></page-nav>
    </div>`;
  }

  override render() {
    const q = this.query;
    const last = this.list.value?.body;
    return html`<div class="top">
        <h1 id="view-title" tabindex="-1">Websites</h1>
        <source-badge of="websites"></source-badge>
        <code class="api muted" title="The API request behind this view">GET ${websitesApiUrl(q)}</code>
      </div>
      <div class="card filters ${this.filtersOpen ? '' : 'collapsed'}">
        ${filterToggle(this.filtersOpen, () => (this.filtersOpen = !this.filtersOpen))}
        <websites-filters
          .query=${q}
          .owners=${this.owners.value ?? []}
          @website-filters-change=${(e: WebsiteFiltersChangeEvent) => this.go({ ...q, filters: e.filters, page: 1 })}
        ></websites-filters>
      </div>
      ${this.analysis.render({
        // A bad filter is reported once, by the listing below.
        error: () => this.figures(),
        pending: () => this.figures(),
        complete: () => this.figures(),
      })}
      <div class="rollups ${this.rollupOpen ? '' : 'collapsed'}">
        <button type="button" class="rollup-toggle" aria-expanded=${this.rollupOpen ? 'true' : 'false'} @click=${() => (this.rollupOpen = !this.rollupOpen)}>
          ${this.rollupOpen ? 'Hide' : 'Show'} the roll-up by ${q.rollup.group === 'target_url_bureau_owner' ? 'bureau' : 'agency'}
        </button>
        <website-rollups .rollups=${this.rollups.value?.rollups ?? null} .state=${q.rollup} @rollup-change=${this.onRollup}
          @rollup-export=${(e: RollupExportEvent) => void this.exportRollup(e)}
        ></website-rollups>
      </div>
      ${this.list.render({
        initial: () => html`<p class="muted">Loading…</p>`,
        pending: () => (last ? this.table(last, true) : html`<p class="muted" role="status">Loading the websites…</p>`),
        complete: (v) => this.table(v.body, false),
        error: (e) => html`<p class="error" role="alert">${e instanceof Error ? e.message : String(e)}</p>`,
      })}`;
  }
}

function yesNo(v: boolean | null | undefined): string {
  return v === null || v === undefined ? '—' : v ? 'Yes' : 'No';
}

declare global {
  interface HTMLElementTagNameMap {
    'websites-view': WebsitesView;
  }
}
