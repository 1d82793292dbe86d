import type { DatasetName } from '../../engine/http/types.ts';
import type { DownloadProgress } from '../artifact/resumable-download.ts';

/** Where a dataset is in its load: the UI draws one progress bar from these. */
export type LoadPhase = 'manifest' | 'download' | 'verify' | 'decompress' | 'open' | 'ready' | 'error';

/** Where one dataset of the load is: what each view says about the data it still waits for. */
export interface DatasetProgress extends DownloadProgress {
  /** 'queued': its download waits for the dataset before it (downloads go one at a time, the first view's first). */
  phase: LoadPhase | 'queued';
  /** True: what downloads is a patch from the copy kept here (only what changed), not the whole file. */
  patch?: boolean;
}

export interface LoadProgress {
  /** Null for the manifest step, which belongs to no one dataset. */
  dataset: DatasetName | null;
  phase: LoadPhase;
  /** Bytes received so far, summed over every dataset of the load (kept bytes of a resumed download count). */
  loaded: number;
  /** Bytes to receive in all (the gzip'd sizes from the manifest); 0 until the manifest is read. */
  total: number;
  message?: string;
  /** Each dataset of the load: its bytes, where it resumed, and its step. */
  datasets?: Partial<Record<DatasetName, DatasetProgress>>;
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
  private readonly datasets = new Map<DatasetName, DatasetProgress>();
  private lastSent = 0;
  total = 0;

  constructor(private readonly send: ProgressCallback | null) {}

  /**
   * A dataset of this load, before its download starts; again when what it downloads changes (a patch instead
   * of the whole file, or the whole file after a patch failed): the load's total follows.
   */
  expect(name: DatasetName, total: number, { patch = false } = {}): void {
    const before = this.datasets.get(name);
    if (before) this.total += total - before.total;
    this.datasets.set(name, { phase: 'queued', received: 0, total, resumedAt: null, ...(patch ? { patch } : {}) });
  }

  bytes(name: DatasetName, progress: DownloadProgress): void {
    const before = this.datasets.get(name);
    const resumed = progress.resumedAt !== null && before?.resumedAt !== progress.resumedAt;
    this.datasets.set(name, { ...progress, phase: 'download', ...(before?.patch ? { patch: true } : {}) });
    const now = performance.now();
    // A resumption is said at once: it is the news.
    if (!resumed && now - this.lastSent < PROGRESS_INTERVAL_MS && progress.received < progress.total) return;
    this.lastSent = now;
    this.report(name, 'download');
  }

  report(dataset: DatasetName | null, phase: LoadPhase, message?: string, replaced?: boolean): void {
    const current = dataset ? this.datasets.get(dataset) : undefined;
    if (current && phase !== 'download') this.datasets.set(dataset!, { ...current, phase, received: phase === 'error' ? current.received : current.total });
    let loaded = 0;
    for (const d of this.datasets.values()) loaded += d.received;
    const datasets = Object.fromEntries([...this.datasets].map(([name, d]) => [name, { ...d }]));
    const progress: LoadProgress = { dataset, phase, loaded, total: this.total, message, datasets };
    if (replaced) Object.assign(progress, { loaded: 0, total: 0, replaced, datasets: {} });
    try {
      this.send?.(progress);
    } catch {
      // The page that asked may be gone; the load goes on for the next caller.
    }
  }
}
