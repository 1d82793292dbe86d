import type { DatasetName } from '../../engine/http/types.ts';

/** Where a dataset is in its load: the UI draws one progress bar from these. */
export type LoadPhase = 'manifest' | 'download' | 'verify' | 'decompress' | 'open' | 'ready' | 'error';

export interface LoadProgress {
  /** Null for the manifest step, which belongs to no one dataset. */
  dataset: DatasetName | null;
  phase: LoadPhase;
  /** Bytes received so far, summed over every dataset of the load. */
  loaded: number;
  /** Bytes to receive in all (the gzip'd sizes from the manifest); 0 until the manifest is read. */
  total: number;
  message?: string;
  /**
   * Set on the `ready` report that follows a switch of the active dataset (an import, a choice in the
   * dataset panel, a deletion): views showing this dataset ask again.
   */
  replaced?: boolean;
}

export type ProgressCallback = (progress: LoadProgress) => void;

const PROGRESS_INTERVAL_MS = 80;

/** Sums byte progress over the datasets of one load and rate-limits the reports crossing to the page. */
export class ProgressReporter {
  private readonly received = new Map<DatasetName, number>();
  private lastSent = 0;
  total = 0;

  constructor(private readonly send: ProgressCallback | null) {}

  bytes(name: DatasetName, received: number): void {
    this.received.set(name, received);
    const now = performance.now();
    if (now - this.lastSent < PROGRESS_INTERVAL_MS) return;
    this.lastSent = now;
    this.report(name, 'download');
  }

  report(dataset: DatasetName | null, phase: LoadPhase, message?: string, replaced?: boolean): void {
    let loaded = 0;
    for (const n of this.received.values()) loaded += n;
    const progress: LoadProgress = { dataset, phase, loaded, total: this.total, message };
    if (replaced) Object.assign(progress, { loaded: 0, total: 0, replaced });
    try {
      this.send?.(progress);
    } catch {
      // The page that asked may be gone; the load goes on for the next caller.
    }
  }
}
