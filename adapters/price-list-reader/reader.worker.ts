/// <reference lib="webworker" />
/**
 * The price-list reader's worker: a same-origin module worker (the page's `worker-src 'self'` allows it) that reads
 * a dropped `.xlsx` off the page's thread (dataset/price-lists/read-file.ts), so the page stays responsive while a
 * large list is parsed and can stop it by terminating this worker. One file per worker; the answer is the list's
 * facts or the message for the user, never a thrown error.
 */
import * as Comlink from 'comlink';
import { readPriceListFile, type ReadProgress } from '../../dataset/price-lists/read-file.ts';
import type { PriceList } from '../../dataset/price-lists/sheet.ts';

export type ReadAnswer = { ok: true; list: PriceList } | { ok: false; message: string };

const api = {
  async read(bytes: ArrayBuffer, name: string, onProgress: ReadProgress): Promise<ReadAnswer> {
    try {
      return { ok: true, list: await readPriceListFile(bytes, onProgress) };
    } catch (error) {
      // A PriceListError's message is written for the user; anything else is a file the reader could not take.
      if (error instanceof Error && error.name === 'PriceListError') return { ok: false, message: error.message };
      return {
        ok: false,
        message: `${name} could not be read as a price list (${error instanceof Error ? error.message : String(error)}). Nothing was changed.`,
      };
    }
  },
};

export type PriceListReaderApi = typeof api;

Comlink.expose(api);
