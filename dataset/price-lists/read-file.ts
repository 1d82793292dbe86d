/**
 * A price list `.xlsx` read with read-excel-file, imported only when a file is read (the browser loads it as its
 * own chunk on the first dropped file; the build tools and the command line share it).
 */
import { PRICE_LIST_SHEETS, PriceListError, readPriceListSheets, type PriceList, type SheetRows } from './sheet.ts';

/** Bigger than any Catalog Platform export seen (the largest of 1,966 is under 2 MB): the reader holds it all. */
export const MAX_PRICE_LIST_BYTES = 32 * 1024 * 1024;

export async function readPriceListFile(bytes: ArrayBuffer | Uint8Array): Promise<PriceList> {
  if (bytes.byteLength > MAX_PRICE_LIST_BYTES) {
    throw new PriceListError(
      `This file is ${(bytes.byteLength / 1048576).toFixed(1)} MB; a price list is read up to ${MAX_PRICE_LIST_BYTES / 1048576} MB. Nothing was changed.`,
    );
  }
  // A copy: a Node Buffer is often a view into a larger pool, whose `.buffer` is the whole pool.
  const buffer = bytes instanceof Uint8Array ? new Uint8Array(bytes).buffer : bytes;
  const { readSheet } = await import('read-excel-file/universal');
  const sheet = async (name: string): Promise<SheetRows> => {
    try {
      return (await readSheet(buffer, name)) as SheetRows;
    } catch (error) {
      const why = error instanceof Error && error.name === 'SheetNotFoundError' ? `it has no "${name}" sheet` : 'it is not an .xlsx workbook';
      throw new PriceListError(`This file is not a GSA Catalog Platform price list (${why}). Nothing was changed.`, { cause: error });
    }
  };
  return readPriceListSheets(await sheet(PRICE_LIST_SHEETS.info), await sheet(PRICE_LIST_SHEETS.prices));
}
