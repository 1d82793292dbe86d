/** The ceiling-rates dataset's features beside its API: price figures over a query, and the whole export. */
import { priceFigures, type PriceFiguresAnswer } from '../../engine/ceilingrates/price-figures.ts';
import type { PriceField } from '../../engine/ceilingrates/parameters.ts';
import { exportAllCsv } from '../../engine/ceilingrates/export-all.ts';
import { UNAVAILABLE, type Failure } from '../../engine/http/failure.ts';
import type { FeatureHost, Transfer } from '../feature-host.ts';
import type { PriceListReview } from '../price-lists/review.ts';
import type { PriceList } from '../price-lists/sheet.ts';
import type { ComparisonOptions } from '../price-lists/comparables.ts';
import type { RowComparables, RowComparablesPage, RowComparablesQuery } from '../price-lists/row-comparables.ts';

export type ExportCsvAnswer = { ok: true; total: number; parts: Uint8Array[] } | Failure;
export type PriceListReviewAnswer = { ok: true; review: PriceListReview } | Failure;
export type ComparedRatesAnswer = { ok: true; csv: Uint8Array } | Failure;
export type RowComparablesAnswer = { ok: true; comparables: RowComparables } | Failure;

const DATASET = 'ceilingrates';

export function ceilingRatesFeatures(host: FeatureHost, transfer: Transfer) {
  return {
    /**
     * The figures of one contract year's price over a ceiling-rates query's matches, and the rank of a
     * proposed price among them (engine/ceilingrates/price-figures.ts): what the API answers for
     * current_price only. `query` holds the API's parameters; `titles`, a pool of exact labor categories.
     */
    async priceFigures(query: string, field: PriceField, proposed: number | null = null, titles: readonly string[] = []): Promise<PriceFiguresAnswer> {
      const db = await host.database(DATASET);
      if (!db) return UNAVAILABLE;
      return priceFigures(db, new URLSearchParams(query), field, proposed, titles);
    },

    /**
     * A price list (read in the page) reviewed against the active ceiling rates (dataset/price-lists/review.ts):
     * reads only, so nothing kept changes. The rates' index is built on the first review of a database.
     */
    async reviewPriceList(list: PriceList, options: Partial<ComparisonOptions> = {}): Promise<PriceListReviewAnswer> {
      const db = await host.database(DATASET);
      if (!db) return UNAVAILABLE;
      // A chunk of its own in the DB worker, loaded on the first review: most visits never review a list.
      const { reviewPriceList } = await import('../price-lists/review.ts');
      return { ok: true, review: reviewPriceList(db, list, options) };
    },

    /**
     * The rates a review of `list` compared, as the memo's second CSV (dataset/price-lists/compared-rates.ts): the
     * review is made again (its index cached, so in milliseconds) rather than sent back from the page.
     */
    async reviewComparedRates(list: PriceList, options: Partial<ComparisonOptions> = {}): Promise<ComparedRatesAnswer> {
      const db = await host.database(DATASET);
      if (!db) return UNAVAILABLE;
      const [{ reviewPriceList }, { comparedRatesCsv }] = await Promise.all([import('../price-lists/review.ts'), import('../price-lists/compared-rates.ts')]);
      const csv = new TextEncoder().encode(comparedRatesCsv(db, reviewPriceList(db, list, options)));
      const answer: ComparedRatesAnswer = { ok: true, csv };
      return transfer(answer, [csv.buffer]);
    },

    /** One reviewed row's comparables, exactly the review's, with their figures and a page of them (the rates view's link). */
    async rowComparables(query: RowComparablesQuery, page: RowComparablesPage): Promise<RowComparablesAnswer> {
      const db = await host.database(DATASET);
      if (!db) return UNAVAILABLE;
      const { rowComparables } = await import('../price-lists/row-comparables.ts');
      return { ok: true, comparables: rowComparables(db, query, page) };
    },

    /**
     * Every record a ceiling-rates query matches as CSV (past the API's 10,000 window), `notes` on the method
     * as metadata rows; the UTF-8 parts in order (transferred), `onProgress(written, total)` after each.
     */
    async exportRatesCsv(
      query: string,
      notes: readonly (readonly [string, string])[],
      onProgress?: (written: number, total: number) => void,
      titles: readonly string[] = [],
    ): Promise<ExportCsvAnswer> {
      const db = await host.database(DATASET);
      if (!db) return UNAVAILABLE;
      const answer = exportAllCsv(db, new URLSearchParams(query), notes, undefined, titles);
      if (!answer.ok) return answer;
      const encoder = new TextEncoder();
      const parts: Uint8Array[] = [];
      for (const chunk of answer.export.chunks()) {
        parts.push(encoder.encode(chunk.text));
        onProgress?.(chunk.written, answer.export.total);
      }
      const result: ExportCsvAnswer = { ok: true, total: answer.export.total, parts };
      return transfer(
        result,
        parts.map((part) => part.buffer),
      );
    },
  };
}
