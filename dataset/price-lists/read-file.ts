/**
 * A price list `.xlsx` read with read-excel-file, imported only when a file is read (the browser reads it in its
 * own worker, adapters/price-list-reader/; the build tools and the command line call it directly).
 *
 * The archive is inflated here, synchronously, and read-excel-file is handed the same parts stored (uncompressed).
 * Left to itself it unzips with fflate's asynchronous `unzip`, which inflates every part of 512 KB or more in a
 * Worker made from a `blob:` URL: the app's `worker-src 'self'` refuses it, and fflate listens for no error, so a
 * large list was read forever (docs/decisions/0800). A stored part is copied, never inflated, so no worker starts.
 */
import { unzipSync, zipSync, type Unzipped } from 'fflate';
import { PRICE_LIST_SHEETS, PriceListError, readPriceListSheets, type PriceList, type SheetRows } from './sheet.ts';

/** Bigger than any Catalog Platform export seen (the largest of 1,966 is under 2 MB): the reader holds it all. */
export const MAX_PRICE_LIST_BYTES = 32 * 1024 * 1024;
/**
 * The parts' declared sizes, inflated, at most: the largest real list's XML is 8.1 MB (Leidos', 3,434 hourly rows
 * and 890 others), so this leaves room for lists many times larger and refuses a zip bomb before inflating it.
 */
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;

/** The reader's steps, in order: what the page says while each runs. */
export const READ_STEPS = ['unzip', 'contractor', 'prices'] as const;
export type ReadStep = (typeof READ_STEPS)[number];
export type ReadProgress = (step: ReadStep) => void;

const notAWorkbook = (cause: unknown): PriceListError =>
  new PriceListError('This file is not a GSA Catalog Platform price list (it is not an .xlsx workbook). Nothing was changed.', { cause });

/** The workbook's XML parts (all read-excel-file reads), inflated and stored again uncompressed; at most `limit` bytes of them. */
export function storedParts(bytes: Uint8Array, limit = MAX_INFLATED_BYTES): ArrayBuffer {
  let declared = 0;
  let parts: Unzipped;
  try {
    parts = unzipSync(bytes, {
      filter: (part) => {
        const wanted = part.name.endsWith('.xml') || part.name.endsWith('.xml.rels');
        if (wanted) declared += part.originalSize;
        return wanted;
      },
    });
  } catch (error) {
    throw notAWorkbook(error);
  }
  if (declared > limit) {
    throw new PriceListError(
      `This file's sheets hold ${(declared / 1048576).toFixed(0)} MB of XML; a price list is read up to ${limit / 1048576} MB. Nothing was changed.`,
    );
  }
  const stored = zipSync(parts, { level: 0 });
  return stored.buffer.slice(stored.byteOffset, stored.byteOffset + stored.byteLength) as ArrayBuffer;
}

export async function readPriceListFile(bytes: ArrayBuffer | Uint8Array, onProgress: ReadProgress = () => {}): Promise<PriceList> {
  if (bytes.byteLength > MAX_PRICE_LIST_BYTES) {
    throw new PriceListError(
      `This file is ${(bytes.byteLength / 1048576).toFixed(1)} MB; a price list is read up to ${MAX_PRICE_LIST_BYTES / 1048576} MB. Nothing was changed.`,
    );
  }
  onProgress('unzip');
  const buffer = storedParts(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  const { readSheet } = await import('read-excel-file/universal');
  const sheet = async (name: string): Promise<SheetRows> => {
    try {
      return (await readSheet(buffer, name)) as SheetRows;
    } catch (error) {
      if (error instanceof Error && error.name === 'SheetNotFoundError')
        throw new PriceListError(`This file is not a GSA Catalog Platform price list (it has no "${name}" sheet). Nothing was changed.`, { cause: error });
      throw notAWorkbook(error);
    }
  };
  onProgress('contractor');
  const info = await sheet(PRICE_LIST_SHEETS.info);
  onProgress('prices');
  return readPriceListSheets(info, await sheet(PRICE_LIST_SHEETS.prices));
}
