import { LitElement, html, css, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { dbContext } from '../../api/context.ts';
import type { DbClient } from '../../api/db-client.ts';
import type { PriceListReview, ReviewedRow, ReviewFlag } from '../../../dataset/price-lists/review.ts';
import type { PriceList } from '../../../dataset/price-lists/sheet.ts';
import { DEFAULT_OPTIONS, FIGURES_MINIMUM, type ComparisonOptions } from '../../../dataset/price-lists/comparables.ts';
import { dataDateOf, matchWords, reviewCsv, type ReviewMeta, type ReviewSource } from '../../../dataset/price-lists/review-csv.ts';
import { reviewMemoHtml } from '../../../dataset/price-lists/review-memo.ts';
import { comparablesHash } from '../../state/review-link.ts';
import { baseStyles } from '../common/styles.ts';
import { formatCount, formatPrice, formatSigned } from '../common/format.ts';
import { saveBytes } from '../common/save-file.ts';
import { carriesFiles, DragListeners } from '../common/drag-files.ts';
import { readPriceList, type ReadJob, type ReadStep } from '../../api/price-list-reader.ts';

const READ_STEP_LABELS: Record<ReadStep, string> = {
  unzip: 'Unpacking the workbook',
  contractor: 'Reading the Contractor Info sheet',
  prices: 'Reading the Price List sheet',
};

/** Rows drawn before "Show all": a list of thousands of rows stays quick to open. */
const FIRST_ROWS = 200;

/** Judged rows furthest from their comparables' median first, then those with too few comparables; the file's order on ties. */
function byDistance(rows: readonly ReviewedRow[]): ReviewedRow[] {
  const judged = (r: ReviewedRow) => r.flag !== 'too few' && r.fromMedian !== null;
  return [...rows].sort((a, b) => {
    if (judged(a) !== judged(b)) return judged(a) ? -1 : 1;
    return (judged(a) ? Math.abs(b.fromMedian!) - Math.abs(a.fromMedian!) : 0) || a.row - b.row;
  });
}

const FLAG_LABELS: Record<ReviewFlag, string> = { above: 'Above p75', below: 'Below p25', within: 'Within', 'too few': 'Too few comparables' };

/** The file name an export gets: `price-list-review-<contract>[-suffix].<ext>`. */
const exportName = (review: PriceListReview, suffix: string, ext: string): string =>
  `price-list-review-${review.contract.replace(/[^\w.-]+/g, '_')}${suffix}.${ext}`;

/**
 * "Review a price list": a GSA Catalog Platform `.xlsx` dropped here (or chosen) is read in the page, by a reader
 * loaded only then, and each hourly labor row is compared with the active ceiling rates in the DB worker. Nothing
 * is stored: the review lives in this element until another file replaces it. A file dropped here is the review's,
 * not the app-wide import's (import-drop-zone), so the drag events stop at this element.
 */
@customElement('price-list-review')
export class PriceListReviewElement extends LitElement {
  static override styles = [
    baseStyles,
    css`
      :host {
        margin-top: 0.75rem;
      }
      details {
        border: 1px solid var(--line);
        border-radius: 10px;
        background: var(--surface);
      }
      details.over {
        outline: 3px dashed var(--accent);
        outline-offset: 2px;
        background: rgb(0 94 162 / 0.06);
      }
      summary {
        cursor: pointer;
        padding: 0.6rem 1rem;
        font-weight: 600;
      }
      .body {
        display: grid;
        gap: 0.75rem;
        padding: 0 1rem 1rem;
      }
      .pick {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        align-items: center;
      }
      p {
        margin: 0;
      }
      .head {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        justify-content: space-between;
        align-items: center;
      }
      .flag {
        font-weight: 600;
        white-space: nowrap;
      }
      .flag.above {
        color: var(--danger);
      }
      .flag.below {
        color: var(--accent-dark);
      }
      td.title {
        min-width: 12rem;
      }
      td.match {
        color: var(--muted);
        font-size: 0.8rem;
        max-width: 14rem;
      }
      td.match.exact {
        color: inherit;
      }
      td.sin {
        font-size: 0.8rem;
      }
      .flag.too-few {
        font-weight: 400;
        color: var(--muted);
      }
      .exports {
        display: flex;
        flex-wrap: wrap;
        gap: 0.4rem;
      }
      .busy {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem 1rem;
        align-items: center;
      }
      fieldset.options {
        border: 1px solid var(--line);
        border-radius: 8px;
        margin: 0;
        padding: 0.4rem 0.75rem 0.6rem;
        display: flex;
        flex-wrap: wrap;
        gap: 0.4rem 1.5rem;
      }
      fieldset.options label {
        display: inline-flex;
        gap: 0.4rem;
        align-items: center;
      }
      fieldset.options input[type='number'] {
        width: 4.5rem;
      }
      .table-wrap {
        max-height: 70vh;
      }
      .row-note {
        display: none;
      }
      /* A phone keeps what answers "is this price in line": the band and the spread move under the title. */
      @media (max-width: 40rem) {
        .wide {
          display: none;
        }
        .row-note {
          display: block;
          color: var(--muted);
          font-size: 0.8rem;
        }
        td.title {
          min-width: 0;
        }
        .flag {
          white-space: normal;
        }
        table {
          font-size: 0.85rem;
        }
        th,
        td {
          padding: 0.3rem 0.3rem;
        }
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @state() private open = false;
  @state() private over = false;
  @state() private busy: string | null = null;
  @state() private error = '';
  @state() private notice = '';
  @state() private review: PriceListReview | null = null;
  /** The list reviewed, held so that other options review it again without reading the file again. */
  private list: PriceList | null = null;
  @state() private source: ReviewSource = { label: '', version: null, date: null };
  @state() private fileName = '';
  @state() private showAll = false;
  @state() private options: ComparisonOptions = DEFAULT_OPTIONS;
  @state() private exporting = '';
  /** The file being read, which Cancel stops; `runs` numbers the reviews so a cancelled one's answer is dropped. */
  private job: ReadJob | null = null;
  private runs = 0;

  private readonly onDragOver = (event: DragEvent): void => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    event.stopPropagation();
    event.dataTransfer!.dropEffect = 'copy';
    this.over = true;
  };
  private readonly onDragLeave = (event: DragEvent): void => {
    if (!carriesFiles(event)) return;
    event.stopPropagation();
    // Crossing into a child element leaves the parent: only the host's own edge counts.
    if (!this.contains(event.relatedTarget as Node | null) && event.relatedTarget !== this) this.over = false;
  };
  private readonly onDrop = (event: DragEvent): void => {
    if (!carriesFiles(event)) return;
    // The browser would open the file in the tab, and the app-wide import would take it.
    event.preventDefault();
    event.stopPropagation();
    this.over = false;
    const file = event.dataTransfer?.files[0];
    if (file) void this.reviewFile(file);
  };

  private readonly drags = new DragListeners(this, () => this, {
    dragenter: this.onDragOver,
    dragover: this.onDragOver,
    dragleave: this.onDragLeave,
    drop: this.onDrop,
  });

  private async reviewFile(file: File): Promise<void> {
    this.job?.cancel();
    const run = ++this.runs;
    this.open = true;
    this.error = '';
    this.notice = '';
    this.busy = `Reading ${file.name}…`;
    // The review's steps as marks (the measure script and the browser test read them): read, compared, shown.
    performance.mark('price-list-review-start');
    try {
      const job = readPriceList(file, (step) => {
        if (run === this.runs) this.busy = `${READ_STEP_LABELS[step]} of ${file.name}…`;
      });
      this.job = job;
      const list = await job.result;
      if (run !== this.runs) return;
      performance.mark('price-list-review-read');
      await this.compare(run, list, file.name);
    } catch (error) {
      if (run === this.runs) this.error = error instanceof Error ? error.message : String(error);
    } finally {
      if (run === this.runs) {
        this.busy = null;
        this.job = null;
      }
    }
  }

  /** Reviews `list` in the DB worker with the chosen options and shows it (unless run `run` was cancelled meanwhile). */
  private async compare(run: number, list: PriceList, fileName: string): Promise<void> {
    this.busy = `Comparing ${formatCount(list.rows.length)} hourly labor rows with the ceiling rates…`;
    const [answer, status] = await Promise.all([this.db.reviewPriceList(list, this.options), this.db.status()]);
    // Cancelled (or replaced by another file) while the DB worker compared: its answer is dropped.
    if (run !== this.runs) return;
    if (!answer.ok) throw new Error(answer.message);
    performance.mark('price-list-review-compared');
    const rates = status.datasets.find((d) => d.name === 'ceilingrates');
    this.source = {
      label: rates?.source?.label ?? (rates?.importName ? `Your file: ${rates.importName}` : 'unknown'),
      version: rates?.version ?? null,
      date: dataDateOf(rates?.source, rates?.fileDate ?? null),
    };
    this.list = list;
    this.review = answer.review;
    this.fileName = fileName;
    this.showAll = false;
    this.busy = null;
    await this.updateComplete;
    performance.mark('price-list-review-shown');
  }

  /** Another minimum or way of counting: the same list reviewed again. */
  private async setOptions(patch: Partial<ComparisonOptions>): Promise<void> {
    const options = { ...this.options, ...patch };
    if (!Number.isInteger(options.minComparables) || options.minComparables < FIGURES_MINIMUM) return;
    this.options = options;
    if (!this.list) return;
    const run = ++this.runs;
    this.error = '';
    this.notice = '';
    try {
      await this.compare(run, this.list, this.fileName);
    } catch (error) {
      if (run === this.runs) this.error = error instanceof Error ? error.message : String(error);
    } finally {
      if (run === this.runs) this.busy = null;
    }
  }

  /** Stops the reading (its worker ends) or drops the comparison's answer; the review shown before stays. */
  private cancel(): void {
    const reading = this.job;
    this.runs++;
    this.job = null;
    this.busy = null;
    reading?.cancel();
    this.notice = 'Cancelled. Nothing was changed.';
  }

  private onPick(event: Event): void {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (file) void this.reviewFile(file);
    // The same file picked again is reviewed again.
    input.value = '';
  }

  private get meta(): ReviewMeta {
    return { source: this.source, reviewedOn: new Date().toISOString().slice(0, 10) };
  }

  private exportCsv(): void {
    if (!this.review) return;
    saveBytes(new TextEncoder().encode(reviewCsv(this.review, this.meta)), exportName(this.review, '', 'csv'), 'text/csv;charset=utf-8');
  }

  /** The compared rates, written by the DB worker (the review made again there: its index is cached). */
  private async exportCompared(): Promise<void> {
    const review = this.review;
    if (!review || !this.list) return;
    this.exporting = 'Writing the compared rates…';
    try {
      const answer = await this.db.reviewComparedRates(this.list, review.options);
      if (!answer.ok) throw new Error(answer.message);
      saveBytes(answer.csv, exportName(review, '-compared-rates', 'csv'), 'text/csv;charset=utf-8');
    } catch (error) {
      this.error = `The compared rates could not be written: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.exporting = '';
    }
  }

  /** The printable page in a tab of its own: the browser's Print (or Save as PDF) takes it from there. */
  private openPrintable(): void {
    if (!this.review) return;
    const url = URL.createObjectURL(new Blob([reviewMemoHtml(this.review, this.meta)], { type: 'text/html;charset=utf-8' }));
    const opened = window.open(url, '_blank');
    if (!opened) saveBytes(new TextEncoder().encode(reviewMemoHtml(this.review, this.meta)), exportName(this.review, '', 'html'), 'text/html;charset=utf-8');
    // The tab has read it by then; the address is not held longer than a minute.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  private row(review: PriceListReview, row: ReviewedRow) {
    const label = `the ${formatCount(row.comparables)} comparables of ${row.title} in the rates view`;
    const flag = html`<span class="flag ${row.flag.replace(' ', '-')}">${FLAG_LABELS[row.flag]}</span>`;
    const href = comparablesHash(review, row);
    return html`<tr data-row=${row.row} data-flag=${row.flag} data-match=${row.match}>
      <td class="title">
        ${row.title}
        <span class="row-note"
          >${row.sin} · ${row.education || 'no education'} · ${row.minYears ?? '?'} yrs · ${matchWords(row)}${
            row.median === null ? '' : ` · median ${formatPrice(row.median)} (p25 ${formatPrice(row.p25)}, p75 ${formatPrice(row.p75)})`
          }</span
        >
      </td>
      <td class="wide sin">${row.sin || '—'}</td>
      <td class="num">${formatPrice(row.price)}</td>
      <td class="wide">${row.education || '—'} · ${row.minYears ?? '—'}</td>
      <td class="wide match ${row.match}">${matchWords(row)}</td>
      <td class="num">${href ? html`<a href=${href} aria-label=${label} title="Open ${label}">${formatCount(row.comparables)}</a>` : '0'}</td>
      <td class="num wide">${formatPrice(row.p25)}</td>
      <td class="num wide">${formatPrice(row.median)}</td>
      <td class="num wide">${formatPrice(row.p75)}</td>
      <td class="num">${formatSigned(row.fromMedian, 0, '%')}<span class="row-note">${flag}</span></td>
      <td class="num wide">${formatSigned(row.sdFromMean, 2)}</td>
      <td class="num wide">${row.percentile === null ? '—' : row.percentile.toFixed(0)}</td>
      <td class="wide">${flag}</td>
    </tr>`;
  }

  private result(review: PriceListReview) {
    const rows = byDistance(review.rows);
    const shown = this.showAll ? rows : rows.slice(0, FIRST_ROWS);
    const count = (test: (row: ReviewedRow) => boolean) => review.rows.filter(test).length;
    const tooFew = count((r) => r.flag === 'too few');
    const { minComparables, onePerOffer } = review.options;
    return html`<div class="head">
        <p role="status" id="review-summary">
          <strong>${review.vendor}</strong> (${review.contract}), generated ${review.generated}: ${formatCount(review.rows.length)} hourly labor
          ${review.rows.length === 1 ? 'row' : 'rows'}; <strong>${formatCount(count((r) => r.flag === 'above'))}</strong> above the comparables' 75th
          percentile, <strong>${formatCount(count((r) => r.flag === 'below'))}</strong> below the 25th,
          ${formatCount(count((r) => r.flag === 'within'))} within${tooFew ? html`, ${formatCount(tooFew)} with too few comparables` : nothing}.
        </p>
        <span class="exports">
          <button type="button" id="review-export" @click=${this.exportCsv}>Export CSV</button>
          <button type="button" id="review-export-compared" @click=${this.exportCompared} ?disabled=${!!this.exporting}>Compared rates (CSV)</button>
          <button type="button" id="review-print" @click=${this.openPrintable}>Printable page</button>
        </span>
      </div>
      ${this.exporting ? html`<p role="status">${this.exporting}</p>` : nothing}
      <p class="muted" id="review-matches">
        Matches: ${formatCount(count((r) => r.match === 'exact'))} by exact title, ${formatCount(count((r) => r.match === 'phrase'))} broadened to a phrase,
        ${formatCount(count((r) => r.match === 'none'))} none. A price is judged on at least ${minComparables} comparables;
        ${
          onePerOffer
            ? 'the statistics count one rate per contract, title and price (an offer listed under several SINs or worksites counts once).'
            : 'the statistics count every rate (an offer listed under several SINs or worksites counts once for each).'
        }
      </p>
      <p class="muted" id="review-source">Compared with ${formatCount(review.rates)} rates. ${this.source.label}</p>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">
            The rows of ${this.fileName}, furthest from their comparables' median first
          </caption>
          <thead>
            <tr>
              <th scope="col">Labor category</th>
              <th scope="col" class="wide">SIN</th>
              <th scope="col" class="num">Price</th>
              <th scope="col" class="wide" title="Education code and minimum years of experience">Edu. · yrs</th>
              <th scope="col" class="wide">Match</th>
              <th scope="col" class="num">Compa&shy;rables</th>
              <th scope="col" class="num wide">P25</th>
              <th scope="col" class="num wide">Median</th>
              <th scope="col" class="num wide">P75</th>
              <th scope="col" class="num">vs median</th>
              <th scope="col" class="num wide" title="Distance from the comparables' mean in sample standard deviations">SD from mean</th>
              <th scope="col" class="num wide" title="The price's percentile rank among its comparables">Pctl.</th>
              <th scope="col" class="wide">Flag</th>
            </tr>
          </thead>
          <tbody>
            ${shown.map((row) => this.row(review, row))}
          </tbody>
        </table>
      </div>
      ${
        shown.length < rows.length
          ? html`<p>
            <button type="button" @click=${() => (this.showAll = true)}>Show all ${formatCount(rows.length)} rows</button>
            <span class="muted">(the first ${formatCount(shown.length)} are shown)</span>
          </p>`
          : nothing
      }`;
  }

  private optionsForm() {
    return html`<fieldset class="options">
      <legend>How comparables are counted</legend>
      <label
        >Judge a price on at least
        <input
          type="number"
          id="review-min"
          min=${FIGURES_MINIMUM}
          max="1000"
          step="1"
          .value=${String(this.options.minComparables)}
          @change=${(e: Event) => void this.setOptions({ minComparables: Number((e.target as HTMLInputElement).value) })}
        />
        comparables</label
      >
      <label
        ><input
          type="checkbox"
          id="review-one-per-offer"
          .checked=${this.options.onePerOffer}
          @change=${(e: Event) => void this.setOptions({ onePerOffer: (e.target as HTMLInputElement).checked })}
        />
        One rate per contract, title and price (an offer under several SINs counts once)</label
      >
    </fieldset>`;
  }

  override render() {
    return html`<details class=${this.over ? 'over' : ''} ?open=${this.open} @toggle=${(e: Event) => (this.open = (e.target as HTMLDetailsElement).open)}>
      <summary>Review a price list (.xlsx)</summary>
      <div class="body">
        <div class="pick">
          <label for="price-list-file">A GSA Catalog Platform price list: drop it here, or choose it</label>
          <input id="price-list-file" type="file" accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" @change=${this.onPick} />
        </div>
        <p class="muted">
          Each hourly labor row is compared with the ceiling rates of the same title, or else of the longest run of its words that finds enough
          (never numerals or level words such as “senior” alone, at least 4 characters; of one length, the run in the fewest titles), with the same
          education and an experience within max(2, 25%) years, the list's own contract left out. The file is read on this device and nothing is
          kept.
        </p>
        ${this.optionsForm()}
        ${
          this.busy
            ? html`<p class="busy" role="status">
                <span id="review-busy">${this.busy}</span>
                <button type="button" id="review-cancel" @click=${this.cancel}>Cancel</button>
              </p>`
            : nothing
        }
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        ${this.notice ? html`<p class="muted" role="status" id="review-notice">${this.notice}</p>` : nothing}
        ${this.review && !this.busy ? this.result(this.review) : nothing}
      </div>
    </details>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'price-list-review': PriceListReviewElement;
  }
}
