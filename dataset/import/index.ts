/** The import core's public surface, for the DB worker and the tests. */
export { detectFormat, datasetOf, FORMAT_LABELS, type DetectedFormat, type ImportFormat } from './formats.ts';
export { startImport, type AnyImportRun, type ImportOptions, type ImportProgress, type ImportRun, type ImportedRecords } from './import.ts';
export { importIntoDatabase, type ImportResult } from './into-database.ts';
export { ImportError, isImportError, type ImportErrorCode } from './errors.ts';
export { summariseReport, type ImportReport, type RejectedRow, type ValueNote, type ValueOutcome } from './report.ts';
export type { ImportSource } from './source.ts';
export type { ImportedCeilingRate } from './ceilingrates/map.ts';
