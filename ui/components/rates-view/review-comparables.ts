import { LitElement, html, css, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { Task } from '@lit/task';
import { dbContext } from '../../api/context.ts';
import type { DbClient } from '../../api/db-client.ts';
import type { RateHit } from '../../api/api-types.ts';
import { baseStyles, factPairStyles } from '../common/styles.ts';
import { formatCount, formatPrice, formatSigned } from '../common/format.ts';
import { navigate } from '../../state/route.ts';
import { lastPage, PAGE_SIZES, ratesParams, emptyRatesQuery, type RatesQuery } from '../../state/rates-query.ts';
import type { ComparablesLink } from '../../state/review-link.ts';
import { bandWords, FLAG_WORDS, matchWords } from '../../../dataset/price-lists/review-csv.ts';
import { fromPriceFigures } from './figures-model.ts';
import type { OrderingChangeEvent } from './rates-table.ts';
import type { PageChangeEvent } from '../common/page-nav.ts';
import './rates-figures.ts';
import './rates-table.ts';
import '../common/page-nav.ts';

/**
 * "The comparables of row N of this review" (ui/state/review-link.ts): exactly the rates the review counted for a
 * row, selected by the DB worker as the review selected them, with the row's figures as the review has them, the
 * rates view's figures over the set, and the rates in the rates table, paged and ordered by its headings. Its
 * state is the link itself, so it is saved and shared as the review wrote it.
 */
@customElement('review-comparables')
export class ReviewComparables extends LitElement {
  static override styles = [
    baseStyles,
    factPairStyles,
    css`
      :host {
        display: grid;
        gap: 0.75rem;
        margin-top: 1rem;
      }
      h2 {
        margin: 0 0 0.4rem;
        font-size: 1.1rem;
      }
      p {
        margin: 0.25rem 0;
      }
      dl {
        display: flex;
        flex-wrap: wrap;
        gap: 0.3rem 1.25rem;
        margin: 0.5rem 0 0;
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @property({ attribute: false }) link!: ComparablesLink;
  /** The view's query: only its ordering and paging apply here. */
  @property({ attribute: false }) query: RatesQuery = emptyRatesQuery();
  /** The hash's own parameters, preserved when the ordering or page changes. */
  @property({ attribute: false }) params = new URLSearchParams();

  private readonly answer = new Task(this, {
    task: async ([link, page, pageSize, ordering]: [ComparablesLink, number, number, RatesQuery['ordering']]) => {
      const answer = await this.db.rowComparables(link.query, { page, pageSize, ordering });
      if (!answer.ok) throw new Error(`${answer.message} (HTTP ${answer.status})`);
      return answer.comparables;
    },
    args: () => [this.link, this.query.page, this.query.pageSize, this.query.ordering] as [ComparablesLink, number, number, RatesQuery['ordering']],
  });

  /** The link with another ordering or page. */
  private go(patch: Partial<Pick<RatesQuery, 'ordering' | 'page' | 'pageSize'>>): void {
    const next = { ...this.query, ...patch };
    const params = new URLSearchParams([...this.params].filter(([key]) => !['ordering', 'sort', 'page', 'page_size'].includes(key)));
    for (const [key, value] of ratesParams({ ...emptyRatesQuery(), ordering: next.ordering, page: next.page, pageSize: next.pageSize }))
      params.append(key, value);
    navigate({ view: 'rates', query: params });
  }

  private describe() {
    const { query, review } = this.link;
    const band = query.years ? `${bandWords(query.years)} years` : 'any experience';
    return html`<h2 id="comparables-title">Comparables of row ${review.row} of the review of ${review.vendor || review.contract} (${review.contract})</h2>
      <p>
        <strong>${review.title}</strong> at <strong>${formatPrice(query.price)}</strong>: rates found by
        ${matchWords({ match: query.match, phrase: query.phrase })} (whole words), education ${query.education || 'none stated'}, minimum experience
        ${band}, the list's own contract ${query.contract} left out,
        ${query.onePerOffer ? 'one rate per contract, title and price' : 'every rate counted'}. A price is judged on at least ${query.minComparables}.
      </p>`;
  }

  private body(found: NonNullable<typeof this.answer.value>) {
    const { row, count } = found;
    const model = fromPriceFigures(found.figures);
    return html`<section class="card" aria-labelledby="comparables-title">
        ${this.describe()}
        <dl id="comparables-row">
          <div><dt>Comparables</dt><dd id="comparables-count">${formatCount(count)}</dd></div>
          <div><dt>P25</dt><dd>${formatPrice(row.p25)}</dd></div>
          <div><dt>Median</dt><dd>${formatPrice(row.median)}</dd></div>
          <div><dt>P75</dt><dd>${formatPrice(row.p75)}</dd></div>
          <div><dt>Mean</dt><dd>${formatPrice(row.mean)}</dd></div>
          <div><dt>SD (sample)</dt><dd>${row.sd === null ? '—' : row.sd.toFixed(2)}</dd></div>
          <div><dt>SD from mean</dt><dd>${formatSigned(row.sdFromMean, 2)}</dd></div>
          <div><dt>Percentile</dt><dd>${row.percentile === null ? '—' : row.percentile.toFixed(1)}</dd></div>
          <div><dt>Flag</dt><dd id="comparables-flag">${FLAG_WORDS[row.flag]}</dd></div>
        </dl>
        <p><a href="#/rates">Search the rates again</a> <span class="muted">(the review stays open above)</span></p>
      </section>
      <rates-figures .model=${model}></rates-figures>
      <rates-table
        .hits=${found.hits as unknown as RateHit[]}
        .ordering=${this.query.ordering}
        .excludable=${false}
        @ordering-change=${(e: OrderingChangeEvent) => this.go({ ordering: e.ordering, page: 1 })}
      ></rates-table>
      <page-nav
        label="Comparables pages"
        .page=${this.query.page}
        .pages=${lastPage(count, this.query.pageSize)}
        .pageSize=${this.query.pageSize}
        .sizes=${PAGE_SIZES}
        @page-change=${(e: PageChangeEvent) => this.go({ page: e.page, pageSize: e.pageSize })}
      ></page-nav>`;
  }

  override render() {
    return (
      this.answer.render({
        initial: () => html`<p class="muted">Loading…</p>`,
        pending: () => (this.answer.value ? this.body(this.answer.value) : html`<p class="muted" role="status">Selecting the comparables…</p>`),
        complete: (found) => this.body(found),
        error: (error) => html`<p class="error" role="alert">${error instanceof Error ? error.message : String(error)}</p>`,
      }) ?? nothing
    );
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'review-comparables': ReviewComparables;
  }
}
