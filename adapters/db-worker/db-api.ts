/** The types the DB worker's methods take and give, apart from the host's own (dataset/host/). */
import type { DatasetName } from '../../engine/http/types.ts';
import type { ImportErrorCode, ImportReport } from '../../dataset/import/index.ts';
import type { ImportedDataset } from '../../dataset/host/imported-store.ts';
import type { DatasetSource } from '../../dataset/artifact/format.ts';

export type { ImportedDataset } from '../../dataset/host/imported-store.ts';
export type { DatasetStatus, DbStatus, LoadPhase, LoadProgress, ProgressCallback } from '../../dataset/host/index.ts';
export type { ImportReport } from '../../dataset/import/index.ts';

export type { PriceCheck, PriceFigures, PriceFiguresAnswer } from '../../engine/ceilingrates/price-figures.ts';
export type { RollupRow, Rollups, RollupsAnswer } from '../../engine/site-scanning/rollups.ts';
export type { ChangeKind, DiffScope, GroupChanges, SiteChange, WeekDiff } from '../../engine/site-scanning/week-diff.ts';
export type { AgencyOwners } from '../../dataset/websites/owners.ts';

export type { BinaryResponse } from '../browser/relay-protocol.ts';

/** Where an import is: reading and mapping the file, writing the database, storing it in IndexedDB. */
export interface ImportProgressReport {
  phase: 'reading' | 'inserting' | 'saving';
  bytesRead: number;
  totalBytes: number | null;
  rowsImported: number;
  rowsRejected: number;
}

export type ImportProgressCallback = (progress: ImportProgressReport) => void;

/**
 * Why an import left everything as it was: the import core's codes, plus `busy` (another tab is
 * importing), `storage` (the new database could not be made ready to keep) and `fetch` (a file imported by URL
 * could not be downloaded: HTTP error, CORS, network).
 */
export type ImportFailureCode = ImportErrorCode | 'busy' | 'storage' | 'fetch';

/** Why an import answers in this window only: the browser refused to store it (`quota`, or another refusal). */
export interface NotKept {
  code: 'quota' | 'storage';
  message: string;
}

export type ImportOutcome =
  | { ok: true; imported: ImportedDataset; report: ImportReport; notKept?: NotKept }
  | { ok: false; code: ImportFailureCode; message: string; report: ImportReport | null };

/** One API's datasets: the build's and the imports, and which is active (null: the build's). */
export interface DatasetChoices {
  dataset: DatasetName;
  active: string | null;
  /** Where the build's own dataset comes from (a real week's date and provenance), whichever is active. */
  builtIn?: DatasetSource | null;
  imports: ImportedDataset[];
}

/** The result of switching or deleting: the message is for the user. */
export type SwitchOutcome = { ok: true; message: string } | { ok: false; message: string };

/** Every match of a ceiling-rates query as CSV: the UTF-8 parts in order (transferred), or the API's refusal. */
export type { ExportCsvAnswer } from '../../dataset/ceilingrates/features.ts';
/** A price list reviewed against the active ceiling rates (dataset/price-lists/review.ts). */
export type { ComparedRatesAnswer, PriceListReviewAnswer, RowComparablesAnswer } from '../../dataset/ceilingrates/features.ts';
export type { PriceListReview, ReviewedRow } from '../../dataset/price-lists/review.ts';
export type { RowComparables, RowComparablesPage, RowComparablesQuery } from '../../dataset/price-lists/row-comparables.ts';
export type { PriceList } from '../../dataset/price-lists/sheet.ts';
