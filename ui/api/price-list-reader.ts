/**
 * Reads a price list `.xlsx` in a worker of its own (adapters/price-list-reader/reader.worker.ts): progress by
 * step, cancel at any moment (the worker is terminated), and an answer in every case: the list, the reader's
 * message, or why the worker could not run. A worker per file, ended when its file is read.
 */
import * as Comlink from 'comlink';
import type { PriceListReaderApi } from '../../adapters/price-list-reader/reader.worker.ts';
import type { ReadStep } from '../../dataset/price-lists/read-file.ts';
import type { PriceList } from '../../dataset/price-lists/sheet.ts';

export type { ReadStep } from '../../dataset/price-lists/read-file.ts';

/** What the user stopped: the reader says so rather than leaving a promise pending. */
export class ReadCancelled extends Error {
  override readonly name = 'ReadCancelled';
}

export interface ReadJob {
  /** The list's facts; rejects with the reader's message (an Error), or ReadCancelled. */
  result: Promise<PriceList>;
  cancel(): void;
}

export function readPriceList(file: File, onStep: (step: ReadStep) => void): ReadJob {
  const worker = new Worker(new URL('../../adapters/price-list-reader/reader.worker.ts', import.meta.url), { type: 'module', name: 'price-list-reader' });
  let settle!: { resolve: (list: PriceList) => void; reject: (error: Error) => void };
  const result = new Promise<PriceList>((resolve, reject) => (settle = { resolve, reject }));
  let done = false;
  const finish = (outcome: PriceList | Error): void => {
    if (done) return;
    done = true;
    worker.terminate();
    if (outcome instanceof Error) settle.reject(outcome);
    else settle.resolve(outcome);
  };
  // A script that cannot run (not found, refused by the page's policy) or a crash: said, not waited on.
  worker.addEventListener('error', (event: ErrorEvent) => {
    event.preventDefault();
    finish(new Error(`The price-list reader could not run (${event.message || 'its script did not load'}). Nothing was changed.`));
  });
  void (async () => {
    try {
      const bytes = await file.arrayBuffer();
      const remote = Comlink.wrap<PriceListReaderApi>(worker);
      const answer = await remote.read(Comlink.transfer(bytes, [bytes]), file.name, Comlink.proxy(onStep));
      finish(answer.ok ? answer.list : new Error(answer.message));
    } catch (error) {
      finish(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return { result, cancel: () => finish(new ReadCancelled(`Reading ${file.name} was cancelled. Nothing was changed.`)) };
}
