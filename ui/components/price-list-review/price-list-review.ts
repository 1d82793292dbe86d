import { LitElement, html, css, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { dbContext } from '../../api/context.ts';
import type { DbClient } from '../../api/db-client.ts';
import type { PriceListReview, ReviewedRow } from '../../../dataset/price-lists/review.ts';
import { reviewCsv } from '../../../dataset/price-lists/review-csv.ts';
import { comparablesHash } from '../../state/review-link.ts';
import { baseStyles } from '../common/styles.ts';
import { formatCount, formatPrice, formatSigned } from '../common/format.ts';
import { saveBytes } from '../common/save-file.ts';
import { carriesFiles } from '../common/drag-files.ts';
import { readPriceList, type ReadJob, type ReadStep } from '../../api/price-list-reader.ts';

const READ_STEP_LABELS: Record<ReadStep, string> = {
  unzip: 'Unpacking the workbook',
  contractor: 'Reading the Contractor Info sheet',
  prices: 'Reading the Price List sheet',
};

/** Rows drawn before "Show all": a list of thousands of rows stays quick to open. */
const FIRST_ROWS = 200;

/** How far a row's price is from its comparables' median, as a share of it; null without figures. */
const fromMedian = (row: ReviewedRow): number | null => (row.median ? (row.price - row.median) / row.median : null);

/** Furthest from the median first; rows without comparables last, in the file's order. */
function byDistance(rows: readonly ReviewedRow[]): ReviewedRow[] {
  return [...rows].sort((a, b) => {
    const [x, y] = [fromMedian(a), fromMedian(b)];
    if (x === null || y === null) return x === null && y === null ? a.row - b.row : x === null ? 1 : -1;
    return Math.abs(y) - Math.abs(x) || a.row - b.row;
  });
}

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
      td.phrase {
        color: var(--muted);
        font-size: 0.85rem;
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
          min-width: 7rem;
        }
        .flag {
          white-space: normal;
        }
        th,
        td {
          padding: 0.35rem 0.4rem;
        }
      }
    `,
  ];

  @consume({ context: dbContext }) db!: DbClient;
  @state() private open = false;
  @state() private over = false;
  @state() private busy: string | null = null;
  @state() private error = '';
  @state() private review: PriceListReview | null = null;
  @state() private source = '';
  @state() private fileName = '';
  @state() private showAll = false;
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

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('dragenter', this.onDragOver);
    this.addEventListener('dragover', this.onDragOver);
    this.addEventListener('dragleave', this.onDragLeave);
    this.addEventListener('drop', this.onDrop);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('dragenter', this.onDragOver);
    this.removeEventListener('dragover', this.onDragOver);
    this.removeEventListener('dragleave', this.onDragLeave);
    this.removeEventListener('drop', this.onDrop);
  }

  private async reviewFile(file: File): Promise<void> {
    this.job?.cancel();
    const run = ++this.runs;
    this.open = true;
    this.error = '';
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
      this.busy = `Comparing ${formatCount(list.rows.length)} hourly labor rows with the ceiling rates…`;
      const [answer, status] = await Promise.all([this.db.reviewPriceList(list), this.db.status()]);
      // Cancelled (or replaced by another file) while the DB worker compared: its answer is dropped.
      if (run !== this.runs) return;
      if (!answer.ok) throw new Error(answer.message);
      performance.mark('price-list-review-compared');
      const rates = status.datasets.find((d) => d.name === 'ceilingrates');
      this.source = rates?.source?.label ?? (rates?.importName ? `Your file: ${rates.importName}` : '');
      this.review = answer.review;
      this.fileName = file.name;
      this.showAll = false;
      this.busy = null;
      await this.updateComplete;
      performance.mark('price-list-review-shown');
    } catch (error) {
      if (run === this.runs) this.error = error instanceof Error ? error.message : String(error);
    } finally {
      if (run === this.runs) {
        this.busy = null;
        this.job = null;
      }
    }
  }

  /** Stops the reading (its worker ends) or drops the comparison's answer; the review shown before stays. */
  private cancel(): void {
    const reading = this.job;
    this.runs++;
    this.job = null;
    this.busy = null;
    reading?.cancel();
    this.error = 'Cancelled. Nothing was changed.';
  }

  private onPick(event: Event): void {
    const input = event.target as HTMLInputElement;
    const file = input.files?.[0];
    if (file) void this.reviewFile(file);
    // The same file picked again is reviewed again.
    input.value = '';
  }

  private exportCsv(): void {
    if (!this.review) return;
    const name = `price-list-review-${this.review.contract.replace(/[^\w.-]+/g, '_')}.csv`;
    saveBytes(new TextEncoder().encode(reviewCsv(this.review)), name, 'text/csv;charset=utf-8');
  }

  private row(row: ReviewedRow) {
    const label = `the ${formatCount(row.comparables)} comparables of ${row.title} in the rates view`;
    const distance = fromMedian(row);
    const flag = row.flag ? html`<span class="flag ${row.flag}">${row.flag === 'above' ? 'Above p75' : 'Below p25'}</span>` : nothing;
    return html`<tr data-row=${row.row}>
      <td class="title">
        ${row.title}
        <span class="row-note"
          >${row.education || 'no education'} · ${row.minYears ?? '?'} yrs${
            row.median === null ? ' · too few comparables' : ` · median ${formatPrice(row.median)} (p25 ${formatPrice(row.p25)}, p75 ${formatPrice(row.p75)})`
          }</span
        >
      </td>
      <td class="num">${formatPrice(row.price)}</td>
      <td class="wide">${row.education || '—'}</td>
      <td class="num wide">${row.minYears ?? '—'}</td>
      <td class="num">
        ${row.comparables ? html`<a href=${comparablesHash(row)} aria-label=${label} title="Open ${label}">${formatCount(row.comparables)}</a>` : '0'}
      </td>
      <td class="phrase wide">${row.phrase || html`<span title="Fewer than two comparables, even by one word">too few</span>`}</td>
      <td class="num wide">${formatPrice(row.p25)}</td>
      <td class="num wide">${formatPrice(row.median)}</td>
      <td class="num wide">${formatPrice(row.p75)}</td>
      <td class="num">${formatSigned(distance === null ? null : distance * 100, 0, '%')}<span class="row-note">${flag}</span></td>
      <td class="num wide">${formatSigned(row.sdFromMean, 2)}</td>
      <td class="num wide">${row.percentile === null ? '—' : row.percentile.toFixed(0)}</td>
      <td class="wide">${flag}</td>
    </tr>`;
  }

  private result(review: PriceListReview) {
    const rows = byDistance(review.rows);
    const shown = this.showAll ? rows : rows.slice(0, FIRST_ROWS);
    const above = review.rows.filter((r) => r.flag === 'above').length;
    const below = review.rows.filter((r) => r.flag === 'below').length;
    const none = review.rows.filter((r) => r.match === 'none').length;
    return html`<div class="head">
        <p role="status" id="review-summary">
          <strong>${review.vendor}</strong> (${review.contract}), generated ${review.generated}: ${formatCount(review.rows.length)} hourly labor
          ${review.rows.length === 1 ? 'row' : 'rows'}; <strong>${formatCount(above)}</strong> above the comparables' 75th percentile,
          <strong>${formatCount(below)}</strong> below the 25th${none ? html`, ${formatCount(none)} with too few comparables` : nothing}.
        </p>
        <button type="button" id="review-export" @click=${this.exportCsv}>Export CSV</button>
      </div>
      <p class="muted" id="review-source">Compared with ${formatCount(review.rates)} rates. ${this.source}</p>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">
            The rows of ${this.fileName}, furthest from their comparables' median first
          </caption>
          <thead>
            <tr>
              <th scope="col">Labor category</th>
              <th scope="col" class="num">Price</th>
              <th scope="col" class="wide">Edu.</th>
              <th scope="col" class="num wide">Years</th>
              <th scope="col" class="num">Compa&shy;rables</th>
              <th scope="col" class="wide">Found by</th>
              <th scope="col" class="num wide">P25</th>
              <th scope="col" class="num wide">Median</th>
              <th scope="col" class="num wide">P75</th>
              <th scope="col" class="num">vs median</th>
              <th scope="col" class="num wide" title="Distance from the comparables' mean in sample standard deviations">SD from mean</th>
              <th scope="col" class="num wide" title="The price's percentile rank among its comparables">Percentile</th>
              <th scope="col" class="wide">Flag</th>
            </tr>
          </thead>
          <tbody>
            ${shown.map((row) => this.row(row))}
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

  override render() {
    return html`<details class=${this.over ? 'over' : ''} ?open=${this.open} @toggle=${(e: Event) => (this.open = (e.target as HTMLDetailsElement).open)}>
      <summary>Review a price list (.xlsx)</summary>
      <div class="body">
        <div class="pick">
          <label for="price-list-file">A GSA Catalog Platform price list: drop it here, or choose it</label>
          <input id="price-list-file" type="file" accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" @change=${this.onPick} />
        </div>
        <p class="muted">
          Each hourly labor row is compared with the ceiling rates of the same title (or, failing two, the nearest shorter phrase of its words),
          the same education and an experience within max(2, 25%) years, the list's own contract left out. The file is read on this device and
          nothing is kept.
        </p>
        ${
          this.busy
            ? html`<p class="busy" role="status">
                <span id="review-busy">${this.busy}</span>
                <button type="button" id="review-cancel" @click=${this.cancel}>Cancel</button>
              </p>`
            : nothing
        } ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
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
