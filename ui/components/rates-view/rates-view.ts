import { LitElement, html, css, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task, TaskStatus } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DbClient } from '../../api/db-client.ts';
import { errorText, type RatesResponse } from '../../api/api-types.ts';
import type { PriceFigures } from '../../api/db-client.ts';
import { baseStyles, viewHeaderStyles } from '../common/styles.ts';
import { formatCount, formatPrice } from '../common/format.ts';
import { sourceDate } from '../../../dataset/artifact/format.ts';
import { navigate } from '../../state/route.ts';
import {
  lastPage,
  PAGE_SIZES,
  parseRatesQuery,
  titlesLeftOut,
  ratesApiUrl,
  ratesHashParams,
  MAX_PINS,
  pinOf,
  type PriceField,
  type RatesQuery,
} from '../../state/rates-query.ts';
import { fromAggregations, fromPriceFigures, type FiguresModel } from './figures-model.ts';
import { saveBytes, saveParts } from '../common/save-file.ts';
import { describeRatesQuery, methodNotes, type DatasetNote } from '../../state/rates-describe.ts';
import { figuresSvg, svgToPng } from './figures-image.ts';
import '../common/page-nav.ts';
import './rates-search.ts';
import './rates-filters.ts';
import './rates-table.ts';
import './rates-figures.ts';
import './price-check.ts';
import './pool-compare.ts';
import './title-pool.ts';
import '../common/source-badge.ts';
import '../price-list-review/price-list-review.ts';
import './review-comparables.ts';
import './contract-summary.ts';
import { parseComparablesLink, type ComparablesLink } from '../../state/review-link.ts';
import type { TitlePoolChangeEvent } from './title-pool.ts';
import type { Pool, UnpinEvent } from './pool-compare.ts';
import type { PriceCheckChangeEvent } from './price-check.ts';
import type { PageChangeEvent } from '../common/page-nav.ts';
import type { RatesSearchEvent } from './rates-search.ts';
import type { FiltersChangeEvent } from './rates-filters.ts';
import type { ExcludeRowEvent, OrderingChangeEvent } from './rates-table.ts';
import { ReloadOnReady, readyOf } from '../common/reload-on-ready.ts';
import { filterToggle } from '../common/filter-toggle.ts';

/**
 * The everyday price-analysis page. Its state is the API query in the URL hash; each change becomes a
 * new history entry and one request to the engine (through the DB worker) for hits and figures together.
 */
@customElement('rates-view')
export class RatesView extends LitElement {
  static override styles = [
    baseStyles,
    viewHeaderStyles,
    css`
      .layout {
        display: grid;
        grid-template-columns: 250px minmax(0, 1fr);
        gap: 1rem;
        align-items: start;
        margin-top: 1rem;
      }
      .layout > * {
        min-width: 0;
      }
      aside {
        position: sticky;
        top: 0.5rem;
      }
      .filter-toggle {
        display: none;
      }
      .results {
        display: grid;
        grid-template-columns: minmax(0, 1fr);
        gap: 0.75rem;
        min-width: 0;
      }
      .status {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        justify-content: space-between;
        align-items: center;
      }
      .mode {
        border: none;
        margin: 0.4rem 0 0;
        padding: 0;
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 1rem;
      }
      .mode label {
        display: inline-flex;
        gap: 0.3rem;
        align-items: center;
      }
      .pool-counts {
        margin: 0;
      }
      .pin-bar {
        display: flex;
        justify-content: flex-end;
      }
      .exports {
        display: flex;
        flex-wrap: wrap;
        gap: 0.4rem;
      }
      .export-progress {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        align-items: center;
        margin: 0;
      }
      .excluded {
        display: flex;
        flex-wrap: wrap;
        gap: 0.4rem;
        align-items: center;
        background: var(--note-bg);
        border: 1px solid var(--note-line);
        border-radius: 8px;
        padding: 0.4rem 0.6rem;
        font-size: 0.9rem;
      }
      .excluded .chip button {
        padding: 0 0.2rem;
      }
      /* Dim stale rows only when an answer is slow to come: a fast one then costs no extra paint. */
      .pending rates-table {
        animation: dim 0s linear 250ms forwards;
      }
      @keyframes dim {
        to {
          opacity: 0.6;
        }
      }
      @media (max-width: 900px) {
        .layout {
          grid-template-columns: 1fr;
        }
        aside {
          position: static;
        }
        .filter-toggle {
          display: inline-block;
        }
        aside.collapsed rates-filters {
          display: none;
        }
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @property({ attribute: false }) params = new URLSearchParams();
  @state() private filtersOpen = false;
  @state() private exporting = false;
  /** Records written so far by the running export, of how many. */
  @state() private exportProgress: { written: number; total: number } | null = null;
  @state() private exportError = '';

  private query: RatesQuery = parseRatesQuery(new URLSearchParams());
  /** A review row's comparables (review-link.ts): the view shows them instead of a search, and asks the API nothing. */
  private link: ComparablesLink | null = null;
  /** Labels for excluded ids, so the restore list says what it restores (ids alone mean nothing). */
  private readonly excludedLabels = new Map<string, string>();
  private focusAfterExclude: number | null = null;
  private renderedUrl = '';

  private readonly results = new Task(this, {
    task: async ([url]: [string]) => {
      if (url === '') return null;
      performance.mark('rates-request', { detail: url });
      const r = await this.db.getJson<RatesResponse>(url);
      performance.mark('rates-response', { detail: url });
      if (r.status !== 200) throw new Error(errorText(r.status, r.body));
      return { url, body: r.body };
    },
    args: () => [this.link ? '' : ratesApiUrl(this.apiQuery)] as [string],
  });

  /**
   * The chosen year's figures and the proposed price's rank, from the DB worker (the API answers
   * current-price figures only): asked only when another year or a proposed price is chosen.
   */
  private readonly figures = new Task(this, {
    task: async ([query, year, proposed, titles]: [string, PriceField, number | null, string[] | null]) => {
      if (this.link || (year === 'current_price' && proposed === null && titles === null)) return null;
      const answer = await this.db.priceFigures(query, year, proposed, titles ?? []);
      if (!answer.ok) throw new Error(`${answer.message} (HTTP ${answer.status})`);
      return { key: figuresKey(query, year, proposed, titles), figures: answer.figures };
    },
    args: () =>
      [ratesApiUrl(this.apiQuery).split('?')[1] ?? '', this.query.year, this.query.proposed, this.pooling ? this.query.titles : null] as [
        string,
        PriceField,
        number | null,
        string[] | null,
      ],
  });

  /** Exact-titles mode with a pool: the figures are the worker's over the pool. */
  private get pooling(): boolean {
    return this.query.mode === 'titles' && this.query.titles.length > 0;
  }

  /** What the API is asked: in exact-titles mode the filters alone (the API cannot OR titles; the worker narrows to the pool). */
  private get apiQuery(): RatesQuery {
    return this.query.mode === 'titles' ? { ...this.query, keyword: '', search: null } : this.query;
  }

  /** The pinned queries' figures, over the chosen year's price (the DB worker's; equal to the API's for the current price). */
  private readonly pinned = new Task(this, {
    // The proposed price is checked against every pin too: the comparison says where it falls in each pool.
    task: async ([pins, year, proposed]: [string[], PriceField, number | null]) => {
      const answers = await Promise.all(pins.map((pin) => this.db.priceFigures(pin, year, proposed)));
      return { key: `${year}|${proposed ?? ''}|${pins.join('\n')}`, figures: answers.map((a) => (a.ok ? a.figures : null)) };
    },
    args: () => [this.query.pins, this.query.year, this.query.proposed] as [string[], PriceField, number | null],
  });

  // A dataset that failed and was loaded again (Datasets → Reload): ask again what failed.
  private readonly reloadOnReady = new ReloadOnReady(
    this,
    () => this.db,
    () => {
      if (this.results.status === TaskStatus.ERROR) void this.results.run();
    },
    { when: readyOf('ceilingrates') },
  );

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('params')) {
      this.query = parseRatesQuery(this.params);
      this.link = parseComparablesLink(this.params);
    }
  }

  override updated(): void {
    // What the figures show, once drawn (tests wait on it): the worker's answer for this year and price.
    const pinnedKey = this.pinned.value?.key ?? '';
    if (this.getAttribute('data-rendered-pins') !== pinnedKey) {
      void this.renderRoot.querySelector('pool-compare')?.updateComplete.then(() => this.setAttribute('data-rendered-pins', pinnedKey));
    }
    const shown = this.figures.value?.key ?? '';
    if (this.getAttribute('data-rendered-figures') !== shown) {
      void this.renderRoot.querySelector('rates-figures')?.updateComplete.then(() => this.setAttribute('data-rendered-figures', shown));
    }
    const rendered = this.results.value?.url ?? '';
    if (rendered === this.renderedUrl) return;
    this.renderedUrl = rendered;
    // Mark the URL as shown once the table and figures have drawn it too (tests and the benchmark wait on it).
    const children = [...this.renderRoot.querySelectorAll<LitElement>('rates-table, rates-figures')];
    void Promise.all(children.map((c) => c.updateComplete)).then(() => {
      if (this.renderedUrl !== rendered) return;
      this.setAttribute('data-rendered-url', rendered);
      performance.mark('view-rendered', { detail: rendered });
      if (this.focusAfterExclude !== null) this.refocusAfterExclude(this.focusAfterExclude);
    });
  }

  /** The excluded row's button is gone: keep keyboard users in place, on the row that took its place. */
  private refocusAfterExclude(index: number): void {
    this.focusAfterExclude = null;
    const buttons = this.renderRoot.querySelector('rates-table')?.shadowRoot?.querySelectorAll<HTMLButtonElement>('button.exclude');
    const target = buttons?.length ? buttons[Math.min(index, buttons.length - 1)] : null;
    (target ?? this.renderRoot.querySelector<HTMLElement>('#restore-all'))?.focus();
  }

  private go(patch: Partial<RatesQuery>): void {
    navigate({ view: 'rates', query: ratesHashParams({ ...this.query, ...patch }) });
  }

  /** Each pooled title's rates under the filters. */
  private titleCounts(model: FiguresModel | null) {
    const counts = this.figures.value?.figures.titles ?? [];
    if (!model || !counts.length) return nothing;
    return html`<section class="card" aria-labelledby="pool-counts-h">
      <h2 id="pool-counts-h">Titles in the pool</h2>
      <table class="pool-counts" id="pool-counts">
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col" class="num">Rates</th>
          </tr>
        </thead>
        <tbody>
          ${counts.map((c) => html`<tr data-title=${c.title}><td>${c.title}</td><td class="num">${formatCount(c.count)}</td></tr>`)}
        </tbody>
      </table>
    </section>`;
  }

  private pin(): void {
    const pin = pinOf(this.query);
    if (!this.query.pins.includes(pin) && this.query.pins.length < MAX_PINS) this.go({ pins: [...this.query.pins, pin] });
  }

  private onUnpin(e: UnpinEvent): void {
    this.go({ pins: this.query.pins.filter((p) => p !== e.pin) });
  }

  /** The current query, then each pin, with their figures. */
  private pools(current: FiguresModel | null): Pool[] {
    const figures = this.pinned.value?.figures ?? [];
    return [
      { title: 'This query', description: describeRatesQuery(this.query), pin: null, model: current },
      ...this.query.pins.map((pin, i) => ({
        title: `Pin ${i + 1}`,
        description: describeRatesQuery(parseRatesQuery(new URLSearchParams(pin))),
        pin,
        model: figures[i] ? fromPriceFigures(figures[i]!) : null,
      })),
    ];
  }

  private onPriceCheck(e: PriceCheckChangeEvent): void {
    this.go(e.patch);
  }

  /** The figures for the chosen year: the API's own for the current price, else the worker's (the last answer while a new one is computed). */
  private model(data: RatesResponse): FiguresModel | null {
    const worker: PriceFigures | null = this.figures.value?.figures ?? null;
    if (this.query.mode === 'titles')
      return this.pooling && worker && worker.field === this.query.year && worker.titles.length ? fromPriceFigures(worker) : null;
    if (this.query.year === 'current_price') return fromAggregations(data.aggregations, this.query.proposed === null ? null : (worker?.check ?? null));
    return worker && worker.field === this.query.year ? fromPriceFigures(worker) : null;
  }

  private onSearch(e: RatesSearchEvent): void {
    this.go({ keyword: e.keyword, search: e.search, page: 1 });
  }

  private onFilters(e: FiltersChangeEvent): void {
    this.go({ ...e.patch, page: 1 });
  }

  private onOrdering(e: OrderingChangeEvent): void {
    this.go({ ordering: e.ordering, page: 1 });
  }

  private onPage(e: PageChangeEvent): void {
    this.go({ page: e.page, pageSize: e.pageSize });
  }

  private onExclude(e: ExcludeRowEvent): void {
    const hits = this.results.value?.body.hits.hits ?? [];
    const hit = hits.find((h) => h._id === e.id);
    if (hit) {
      this.excludedLabels.set(e.id, `${hit._source.labor_category} · ${hit._source.vendor_name} · ${formatPrice(hit._source.current_price)}`);
      this.focusAfterExclude = hits.indexOf(hit);
    }
    this.go({ exclude: [...this.query.exclude, e.id] });
  }

  private restore(ids: string[]): void {
    this.go({ exclude: this.query.exclude.filter((id) => !ids.includes(id)) });
  }

  /** The dataset the figures came from, as an export notes it. */
  private async datasetNote(): Promise<DatasetNote> {
    const status = (await this.db.status()).datasets.find((d) => d.name === 'ceilingrates');
    return {
      version: status?.version ?? null,
      // The data's date, never when this browser opened it: a built-in source's own date; an import's file date.
      date: status?.source?.kind === 'synthetic' ? 'none (generated data)' : (sourceDate(status?.source ?? null) ?? status?.fileDate ?? null),
      importName: status?.importName ?? null,
      sourceLabel: status?.source?.label ?? null,
    };
  }

  /**
   * Every matching record (past the API's 10,000 window), written by the DB worker with the method's notes
   * as metadata rows: the query in words, the request, the dataset's version and date, the count.
   */
  private async exportCsv(): Promise<void> {
    this.exporting = true;
    this.exportError = '';
    this.exportProgress = null;
    try {
      const url = ratesApiUrl({ ...this.apiQuery, page: 1 });
      // The figures the view shows (the API's or the DB worker's for this year and pool), as the memo quotes them.
      const data = this.results.value?.body;
      const notes = methodNotes(this.query, url, await this.datasetNote(), new Date(), data ? this.model(data) : null);
      const titles = this.query.mode === 'titles' ? this.query.titles : [];
      const answer = await this.db.exportRatesCsv(url.split('?')[1] ?? '', notes, (written, total) => (this.exportProgress = { written, total }), titles);
      if (!answer.ok) throw new Error(`${answer.message} (HTTP ${answer.status})`);
      const stamp = new Date().toISOString().slice(0, 10);
      saveParts(answer.parts, `ceiling-rates-${stamp}.csv`, 'text/csv;charset=utf-8');
    } catch (error) {
      this.exportError = `Export failed: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.exporting = false;
    }
  }

  /** The figures and histogram as a picture, with the query in words and the data's source under them. */
  private async exportImage(kind: 'svg' | 'png'): Promise<void> {
    const data = this.results.value?.body;
    const model = data ? this.model(data) : null;
    if (!model) return;
    this.exportError = '';
    try {
      const dataset = await this.datasetNote();
      const source = `Source: ceiling rates dataset version ${dataset.version ?? 'unknown'} (${dataset.date ?? 'date unknown'})${dataset.sourceLabel ? `. ${dataset.sourceLabel}` : ''}; GET ${ratesApiUrl(this.apiQuery)}`;
      const svgText = figuresSvg(model, describeRatesQuery(this.query), source);
      const stamp = new Date().toISOString().slice(0, 10);
      if (kind === 'svg') saveBytes(new TextEncoder().encode(svgText), `ceiling-rates-figures-${stamp}.svg`, 'image/svg+xml');
      else saveBytes(await svgToPng(svgText), `ceiling-rates-figures-${stamp}.png`, 'image/png');
    } catch (error) {
      this.exportError = `Saving the figures failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  private excludedBar() {
    const ids = this.query.exclude;
    if (!ids.length) return nothing;
    return html`<div class="excluded" role="region" aria-label="Excluded rows">
      <span><strong>${ids.length}</strong> excluded ${ids.length === 1 ? 'row' : 'rows'}:</span>
      ${ids.map(
        (id) => html`<span class="chip"
          >${this.excludedLabels.get(id) ?? `record ${id}`}
          <button type="button" class="chip-action" aria-label="Restore ${this.excludedLabels.get(id) ?? `record ${id}`}" @click=${() => this.restore([id])}>
            ×
          </button></span
        >`,
      )}
      <button type="button" id="restore-all" @click=${() => this.restore(ids)}>Restore all</button>
    </div>`;
  }

  private body(data: RatesResponse | undefined, pending: boolean) {
    const q = this.query;
    const total = data?.hits.total.value ?? 0;
    const model = data ? this.model(data) : null;
    const titlesMode = q.mode === 'titles';
    const count = titlesMode ? (model?.matches ?? 0) : (data?.aggregations.wage_stats.count ?? 0);
    const pages = lastPage(total, q.pageSize);
    const figuresError = this.figures.status === TaskStatus.ERROR ? String(this.figures.error) : '';
    const contract = q.search?.field === 'idv_piid' ? (data?.hits.hits[0]?._source ?? null) : null;
    return html`<div class="results ${pending ? 'pending' : ''}">
      ${contract ? html`<contract-summary .record=${contract} .count=${count} .median=${model?.median ?? null}></contract-summary>` : nothing}
      <price-check .year=${q.year} .proposed=${q.proposed} .check=${model?.check ?? null} @price-check-change=${this.onPriceCheck}></price-check>
      ${figuresError ? html`<p class="error" role="alert">${figuresError}</p>` : nothing}
      ${titlesMode && !this.pooling ? html`<p class="muted">Add titles to the pool to see their figures.</p>` : nothing}
      <rates-figures .model=${model}></rates-figures>
      ${titlesMode ? this.titleCounts(model) : nothing}
      ${
        titlesMode
          ? nothing
          : html`<div class="pin-bar">
            <button type="button" id="pin" @click=${this.pin} ?disabled=${q.pins.includes(pinOf(q)) || q.pins.length >= MAX_PINS}>
              ${q.pins.includes(pinOf(q)) ? 'This query is pinned' : `Pin this query to compare (${q.pins.length} of ${MAX_PINS})`}
            </button>
          </div>`
      }
      <pool-compare .pools=${this.pools(model)} @unpin=${this.onUnpin}></pool-compare>
      ${this.excludedBar()}
      <div class="status">
        <p role="status" aria-live="polite" id="result-status">
          ${
            titlesMode
              ? html`<strong>${formatCount(count)}</strong> ${count === 1 ? 'rate' : 'rates'} in the pool under the filters`
              : data
                ? html`<strong>${formatCount(count)}</strong> ${count === 1 ? 'rate matches' : 'rates match'}${
                    total < count ? html` <span class="muted">(the first ${formatCount(total)} can be paged)</span>` : nothing
                  }`
                : 'Searching…'
          }
        </p>
        <span class="exports">
          <button type="button" @click=${this.exportCsv} ?disabled=${this.exporting || !data || (titlesMode && !this.pooling)} title="Every matching rate, with the query and the dataset noted at the top">
            ${this.exporting ? 'Exporting…' : `Export CSV (all ${formatCount(count)})`}
          </button>
          <button type="button" @click=${() => this.exportImage('svg')} ?disabled=${!data}>Figures as SVG</button>
          <button type="button" @click=${() => this.exportImage('png')} ?disabled=${!data}>Figures as PNG</button>
        </span>
      </div>
      ${
        this.exporting && this.exportProgress
          ? html`<p class="export-progress">
            <label for="export-bar">Writing the CSV: ${formatCount(this.exportProgress.written)} of ${formatCount(this.exportProgress.total)} rates</label>
            <progress id="export-bar" max=${this.exportProgress.total || 1} .value=${this.exportProgress.written}></progress>
          </p>`
          : nothing
      }
      ${this.exportError ? html`<p class="error" role="alert">${this.exportError}</p>` : nothing}
      ${
        titlesMode
          ? html`<p class="muted">The table lists keyword searches; a pool of exact titles is summed up above and exported whole.</p>`
          : html`<rates-table
        .hits=${data?.hits.hits ?? []}
        .ordering=${q.ordering}
        ?busy=${pending}
        @ordering-change=${this.onOrdering}
        @exclude-row=${this.onExclude}
      ></rates-table>
      <page-nav
        label="Result pages"
        .page=${q.page}
        .pages=${pages}
        .pageSize=${q.pageSize}
        .sizes=${PAGE_SIZES}
        @page-change=${this.onPage}
      ></page-nav>`
      }
    </div>`;
  }

  override render() {
    const url = ratesApiUrl(this.apiQuery);
    const task = this.results;
    const data = task.value?.body;
    return html`<div class="top">
        <h1 id="view-title" tabindex="-1">Ceiling rates</h1>
        <source-badge of="ceilingrates"></source-badge>
        ${
          this.link
            ? html`<span class="api muted">A reviewed row's comparables, selected as the review selected them (no API request)</span>`
            : html`<code class="api muted" title="The API request behind this view">GET ${url}</code>`
        }
      </div>
      ${this.link ? nothing : this.searchControls()}
      <price-list-review></price-list-review>
      ${
        this.link
          ? html`<review-comparables .link=${this.link} .query=${this.query} .params=${this.params}></review-comparables>`
          : html`<div class="layout">
        <aside class=${this.filtersOpen ? '' : 'collapsed'} aria-label="Filter panel">
          ${filterToggle(this.filtersOpen, () => (this.filtersOpen = !this.filtersOpen))}
          <rates-filters class="card" .query=${this.query} @filters-change=${this.onFilters}></rates-filters>
        </aside>
        <div>
          ${task.render({
            initial: () => html`<p class="muted">Loading…</p>`,
            pending: () => (data ? this.body(data, true) : html`<p class="muted" role="status">Loading the rates…</p>`),
            complete: (value) => (value ? this.body(value.body, false) : nothing),
            error: (error) => html`<p class="error" role="alert">${error instanceof Error ? error.message : String(error)}</p>
              ${data ? this.body(data, false) : nothing}`,
          })}
        </div>
      </div>`
      }`;
  }

  /** The search (or the pool of exact titles) and the choice between them. */
  private searchControls() {
    return html`${
      this.query.mode === 'titles'
        ? html`<title-pool
            class="card"
            .query=${this.query}
            .counts=${this.figures.value?.figures.titles ?? []}
            .leftOut=${titlesLeftOut(this.params)}
            @title-pool-change=${(e: TitlePoolChangeEvent) => this.go({ titles: e.titles })}
          ></title-pool>`
        : html`<rates-search .query=${this.query} @rates-search=${this.onSearch}></rates-search>`
    }
      <fieldset class="mode">
        <legend class="visually-hidden">Search mode</legend>
        ${(
          [
            ['contains', 'Contains (keyword)'],
            ['titles', 'Exact titles (a pool)'],
          ] as const
        ).map(
          ([mode, label]) => html`<label
            ><input type="radio" name="search_mode" value=${mode} .checked=${this.query.mode === mode} @change=${() => this.go({ mode, page: 1 })} />
            ${label}</label
          >`,
        )}
      </fieldset>`;
  }
}

function figuresKey(query: string, year: PriceField, proposed: number | null, titles: string[] | null): string {
  return `${year}|${proposed ?? ''}|${query}${titles ? `|${titles.join('|')}` : ''}`;
}

declare global {
  interface HTMLElementTagNameMap {
    'rates-view': RatesView;
  }
}
