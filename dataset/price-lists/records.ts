/**
 * Price-list rows → ceiling-rate records (docs/api/data-sources.md has the table). The list's own words map to the
 * interface's codes here, once: the build, `update-rates` and the price-list review all call it.
 */
import type { CeilingRateRecord } from '../../engine/ceilingrates/record.ts';
import type { PriceList, PriceListRow } from './sheet.ts';

/** Catalog Platform education words → the interface's codes (TEC: production's education_level_counts code). */
export const EDUCATION_CODES: Readonly<Record<string, string>> = {
  High_School: 'HS',
  High_School_Equivalent: 'HS',
  Associates: 'AA',
  Bachelors: 'BA',
  Masters: 'MA',
  PhD: 'PHD',
  Other_Tech_School_or_Certification: 'TEC',
  None: 'NONE',
};

/** A word the table does not know stays as written, underscores read as spaces (`Contractor_Facility` → `Contractor Facility`). */
const spaced = (word: string): string => word.replace(/_/g, ' ');

export const educationCode = (word: string | null): string => (word === null ? '' : (EDUCATION_CODES[word] ?? spaced(word)));
export const worksiteName = (word: string | null): string => (word === null ? '' : spaced(word));

/** What the eLibrary SIN lists add: each SIN's category and subcategory, each contract's business size. */
export interface PriceListJoins {
  category(sin: string): readonly [category: string, subcategory: string] | undefined;
  businessSize(contract: string): 'S' | 'O' | undefined;
}

/** The SIN codes of a row (`541330ENG, 541380`). */
export const sinCodes = (sin: string): string[] => sin.split(/[,;\s]+/).filter(Boolean);

/**
 * A row's category and subcategory: each of its SINs' pair, distinct, joined with `; ` (the `category:` filter
 * matches one element of that list); `''` when no SIN of the row is in the eLibrary lists.
 */
function categories(sin: string, joins: PriceListJoins): [string, string] {
  const pairs = sinCodes(sin).flatMap((code) => {
    const pair = joins.category(code);
    return pair ? [pair] : [];
  });
  const distinct = (values: string[]): string => [...new Set(values.filter(Boolean))].join('; ');
  return [distinct(pairs.map((p) => p[0])), distinct(pairs.map((p) => p[1]))];
}

const compact = (date: string): string => date.replace(/-/g, '');

export function priceListRecord(list: PriceList, row: PriceListRow, id: number, joins: PriceListJoins): CeilingRateRecord {
  const [category, subcategory] = categories(row.sin, joins);
  return {
    id,
    vendor_name: list.vendor,
    idv_piid: list.contract,
    schedule: 'MAS',
    sin: row.sin,
    labor_category: row.title,
    category,
    subcategory,
    education_level: educationCode(row.education),
    // Whole years, as the field is an integer: 226 real rates give a fraction (0.01, 0.1, 0.25, 0.5 → 0; 1.5 → 1),
    // stored as written in the shipped file. The schema stores NULL for a missing value (decision 0502).
    min_years_experience: (row.minYears === null ? null : Math.floor(row.minYears)) as number,
    worksite: worksiteName(row.worksite),
    security_clearance: row.clearance,
    business_size: joins.businessSize(list.contract) ?? '',
    current_price: row.price,
    next_year_price: row.nextYear,
    second_year_price: row.secondYear,
    contract_start: list.start ?? '',
    contract_end: list.end ?? '',
    cont_beg_dtg: list.start === null ? '' : compact(list.start),
    cont_end_dtg: list.end === null ? '' : compact(list.end),
    dt_termg: null,
    _timestamp: list.generatedAt,
  };
}

/** Every list's rows as records, ids from `firstId` in list then row order. */
export function priceListRecords(lists: readonly PriceList[], joins: PriceListJoins, firstId = 1): CeilingRateRecord[] {
  const records: CeilingRateRecord[] = [];
  for (const list of lists) for (const row of list.rows) records.push(priceListRecord(list, row, firstId + records.length, joins));
  return records;
}
