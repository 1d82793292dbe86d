/**
 * The shipped form of the price lists (data/ceilingrates-gsa-mas-2025.json.br): each list's facts with its rows as
 * arrays, plus the joins from GSA eLibrary's SIN lists. Only facts: no descriptions, no contacts.
 */
import type { PriceList, PriceListRow } from './sheet.ts';

/** The shipped file's name under data/: the build reads it, `update-rates` reads its joins. */
export const PRICE_LISTS_FILE = 'ceilingrates-gsa-mas-2025.json.br';
import type { PriceListJoins } from './records.ts';

export const SHIPPED_ROW_FIELDS = ['title', 'sin', 'worksite', 'education', 'minYears', 'clearance', 'price', 'nextYear', 'secondYear'] as const;
/** A row's values in SHIPPED_ROW_FIELDS order. */
type ShippedRow = PriceListRow[(typeof SHIPPED_ROW_FIELDS)[number]][];

export interface ShippedList extends Omit<PriceList, 'rows'> {
  rows: ShippedRow[];
}

export interface ShippedPriceLists {
  rowFields: typeof SHIPPED_ROW_FIELDS;
  /** SIN → [category, subcategory] (eLibrary's "Large Category" and "Sub Category"). */
  sins: Record<string, [string, string]>;
  /** Contract number (contractKey) → business size (eLibrary's Small Business / Other Than Small Business marks). */
  businessSize: Record<string, 'S' | 'O'>;
  lists: ShippedList[];
}

export const toShippedList = (list: PriceList): ShippedList => ({
  ...list,
  rows: list.rows.map((row) => SHIPPED_ROW_FIELDS.map((field) => row[field])),
});

export function fromShippedList(list: ShippedList): PriceList {
  return {
    ...list,
    rows: list.rows.map((cells) => Object.fromEntries(SHIPPED_ROW_FIELDS.map((field, i) => [field, cells[i]])) as unknown as PriceListRow),
  };
}

/** Contract numbers as eLibrary and the price lists both match them: `GS-00F-0004X` is `GS00F0004X`. */
export const contractKey = (contract: string): string => contract.replace(/[-\s]/g, '').toUpperCase();

export function shippedJoins(shipped: Pick<ShippedPriceLists, 'sins' | 'businessSize'>): PriceListJoins {
  return {
    category: (sin) => shipped.sins[sin],
    businessSize: (contract) => shipped.businessSize[contractKey(contract)],
  };
}
