/**
 * The data build's progress lines. A newcomer's `npm start` builds for a while before it serves: each step says
 * what it starts, with the seconds since the build began, so a slow step is not taken for a hang; while the thread
 * only waits for work running elsewhere (compression on other threads), a line every few seconds says what is left.
 */
import type { ImportProgress } from '../dataset/import/index.ts';

/** The lines of one file's build, each naming the file. */
export interface StepLog {
  (line: string): void;
  /** An import's progress for `onProgress`, at most one line every few seconds (the import calls back per batch). */
  importProgress(records: number): (progress: ImportProgress) => void;
}

export interface BuildLog {
  (line: string): void;
  step(file: string): StepLog;
  /** Says `what` while `work` runs: a line when it ends, and while waiting, a line every few seconds. */
  track<T>(what: string, work: Promise<T>, done: (value: T, seconds: number) => string): Promise<T>;
  /** Stops the waiting lines; the process can then end. */
  stop(): void;
}

export const megabytes = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

export function buildLog(prefix = 'data', everyMs = 5000, write: (line: string) => void = console.log): BuildLog {
  const started = performance.now();
  let lastLine = started;
  const running = new Map<string, number>();
  const seconds = (from: number): string => ((performance.now() - from) / 1000).toFixed(1);
  const say = ((line: string) => {
    lastLine = performance.now();
    write(`${prefix}: [${seconds(started).padStart(5)} s] ${line}`);
  }) as BuildLog;
  const timer = setInterval(
    () => {
      if (running.size === 0 || performance.now() - lastLine < everyMs) return;
      say(`still ${[...running].map(([what, since]) => `${what} (${seconds(since)} s)`).join(', ')}`);
    },
    Math.min(250, everyMs / 4),
  );
  // The timer only reports: it must not keep a finished build's process alive.
  timer.unref();
  say.track = async (what, work, done) => {
    const since = performance.now();
    running.set(what, since);
    try {
      const value = await work;
      say(done(value, (performance.now() - since) / 1000));
      return value;
    } finally {
      running.delete(what);
    }
  };
  say.step = (file) => {
    const step = ((line: string) => say(`${file}: ${line}`)) as StepLog;
    step.importProgress = (records) => {
      let last = performance.now();
      return (progress) => {
        if (performance.now() - last < everyMs / 2) return;
        last = performance.now();
        step(`${progress.rowsImported.toLocaleString('en-US')} of ${records.toLocaleString('en-US')} records imported`);
      };
    };
    return step;
  };
  say.stop = () => clearInterval(timer);
  return say;
}
