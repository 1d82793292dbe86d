/** A worker thread running a TypeScript module of this repository, as the tools run under tsx. */
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function tsxWorker(entry: URL, options: WorkerOptions = {}): Worker {
  // tsx's loader is not inherited by a worker's entry module in Node 20: the thread registers it, then loads the file.
  const api = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(api)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`, {
    ...options,
    eval: true,
  });
}
