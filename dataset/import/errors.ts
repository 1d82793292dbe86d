/** Why an import stopped. Every code leaves the previously active dataset untouched. */
export type ImportErrorCode =
  | 'wrong-format' // not one of the accepted files
  | 'truncated' // the file ends in the middle of a row or of its JSON
  | 'malformed' // the file is of the right kind but cannot be read (bad JSON, missing required columns)
  | 'no-valid-rows' // every row was rejected, or there were none
  | 'cancelled' // the AbortSignal fired
  | 'database'; // building the new database failed (for example out of memory)

/**
 * The one error an import throws. `message` is written for the user (shown as is in the app);
 * `cause` keeps the underlying error for the console.
 */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  readonly code: ImportErrorCode;

  constructor(code: ImportErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isImportError(error: unknown): error is ImportError {
  return error instanceof ImportError;
}

export function cancelled(): ImportError {
  return new ImportError('cancelled', 'Import cancelled. The previous dataset is still active.');
}

/** Throws the cancel error when the signal has fired; called between chunks and batches. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelled();
}
