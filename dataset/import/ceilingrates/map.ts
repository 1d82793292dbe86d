/**
 * A ceiling-rate row (the export CSV of any version, the 2016-era and s70 price lists, or an API `_source`)
 * → the record: spelled-out education → codes, `$` and thousands separators dropped, M/D/YYYY and M/D/YY
 * dates → YYYY-MM-DD and YYYYMMDD. A value that cannot be normalised keeps its original text where the
 * field holds text, else becomes null; both are noted for the report.
 */
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';
import { FORMULA_START } from '../../../engine/ceilingrates/export.ts';
import { calendarDate } from '../dates.ts';
import type { MapResult, SourceFields } from '../fields.ts';
import type { ValueNotes } from '../report.ts';
import { integer, isBlank, leadingInteger, number, text } from '../values.ts';
import { quote } from '../report.ts';
import { businessSizeCode, clearanceName, educationCode, worksiteName } from './codes.ts';
import type { CeilingColumn } from './columns.ts';

/**
 * The record as imported. The schema lets min_years_experience be NULL (a price list's `N/A`, an empty
 * cell); the engine's record type says number, so the driver inserts through that type (decision 0502).
 */
export type ImportedCeilingRate = Omit<CeilingRateRecord, 'min_years_experience'> & { min_years_experience: number | null };

export interface CeilingContext {
  /** The next free id, for a row that carries none. */
  assignId(): number;
  /** `_timestamp` for rows that carry none: the time of the import. */
  timestamp: string;
}

const YEAR_COLUMNS = ['year_1', 'year_2', 'year_3', 'year_4', 'year_5'] as const satisfies readonly CeilingColumn[];

export function mapCeilingRate(row: SourceFields<CeilingColumn>, context: CeilingContext, notes: ValueNotes): MapResult<ImportedCeilingRate> {
  /** The cell as text, with the export's formula-injection guard (`'=…`) taken off. */
  const raw = (key: CeilingColumn, field: string): unknown => {
    const value = row.get(key);
    if (typeof value === 'string' && value.startsWith("'") && FORMULA_START.test(value.slice(1))) {
      notes.note(field, "spreadsheet guard ' removed", 'normalised', value, value.slice(1));
      return value.slice(1);
    }
    return value;
  };
  /** A text field the schema requires: an absent value is stored as '' and noted. */
  const required = (key: CeilingColumn, field: string): string => {
    const value = text(raw(key, field));
    if (value !== null) return value;
    notes.note(field, 'missing value stored as empty text', 'kept-original', '', '');
    return '';
  };
  /** A coded field: the code when recognised, else the original text (noted). */
  const coded = (key: CeilingColumn, field: string, code: (value: string) => string | null, kind: string): string | null => {
    const value = text(raw(key, field));
    if (value === null) return null;
    const result = code(value);
    if (result === null) {
      notes.note(field, `not a known ${kind}`, 'kept-original', value, value);
      return value;
    }
    if (result !== value) notes.note(field, `${kind} spelled out`, 'normalised', value, result);
    return result;
  };

  const laborCategory = text(raw('labor_category', 'labor_category'));
  if (laborCategory === null) return { ok: false, reason: 'no labor category' };

  const unit = text(row.get('unit_of_issue'));
  if (unit !== null && !/\bhour|\bhr\b|hourly/i.test(unit)) return { ok: false, reason: `priced per ${quote(unit.trim())}, not per hour` };

  // Older price lists give a price per contract year and the current year's number.
  const yearly = YEAR_COLUMNS.some((key) => row.has(key));
  const contractYear = row.has('contract_year') ? integer(row.get('contract_year'), 'contract_year', notes) : null;
  const yearPrice = (offset: number, field: string): number | null => {
    const year = (contractYear ?? 1) + offset;
    return year >= 1 && year <= 5 ? number(row.get(YEAR_COLUMNS[year - 1]), field, notes) : null;
  };

  const priceText = row.get('current_price');
  let currentPrice: number | null;
  if (!isBlank(priceText)) {
    currentPrice = number(priceText, 'current_price', notes);
    if (currentPrice === null) return { ok: false, reason: `current price ${quote(String(priceText).trim())} is not a number` };
  } else if (yearly) {
    currentPrice = yearPrice(0, 'current_price');
    // The 2016 list leaves later years empty when the price did not change: the latest earlier year's price holds.
    for (let back = 1; currentPrice === null && back < (contractYear ?? 1); back++) {
      currentPrice = yearPrice(-back, 'current_price');
      if (currentPrice !== null) notes.note('current_price', 'price of an earlier contract year (current year empty)', 'normalised', '', currentPrice);
    }
    if (currentPrice === null) return { ok: false, reason: `no price for contract year ${contractYear ?? 1}` };
  } else {
    return { ok: false, reason: 'no current price' };
  }
  const laterPrice = (key: CeilingColumn, field: string, offset: number): number | null =>
    row.has(key) ? number(raw(key, field), field, notes) : yearly ? yearPrice(offset, field) : null;

  const dates = (key: 'contract_start' | 'contract_end', compactKey: 'cont_beg_dtg' | 'cont_end_dtg'): [string, string] => {
    const value = text(raw(key, key)) ?? text(row.get(compactKey));
    if (value === null) {
      notes.note(key, 'missing date stored as empty text', 'kept-original', '', '');
      return ['', ''];
    }
    const date = calendarDate(value);
    if (date === null) {
      notes.note(key, 'not a date', 'kept-original', value, value);
      return [value, value];
    }
    if (date.form !== null) notes.note(key, `${date.form} date`, 'normalised', value, date.iso);
    return [date.iso, date.compact];
  };
  const [contractStart, contBeg] = dates('contract_start', 'cont_beg_dtg');
  const [contractEnd, contEnd] = dates('contract_end', 'cont_end_dtg');

  const terminated = text(row.get('dt_termg'));
  let dtTermg: string | null = null;
  if (terminated !== null) {
    const date = calendarDate(terminated);
    if (date === null) notes.note('dt_termg', 'not a date', 'kept-original', terminated, terminated);
    dtTermg = date === null ? terminated : date.compact;
  }

  const idValue = row.get('id');
  const id = isBlank(idValue) ? null : integer(idValue, 'id', notes);
  // An id names the record in /api/v3/search/ceilingrates/; one that cannot be stored exactly is not replaced silently.
  if (!isBlank(idValue) && id === null) return { ok: false, reason: `id ${quote(idValue)} is not a whole number below 2^53` };

  const record: ImportedCeilingRate = {
    id: id ?? context.assignId(),
    vendor_name: required('vendor_name', 'vendor_name'),
    idv_piid: required('idv_piid', 'idv_piid'),
    schedule: required('schedule', 'schedule'),
    sin: required('sin', 'sin'),
    labor_category: laborCategory,
    category: text(raw('category', 'category')) ?? '',
    subcategory: text(raw('subcategory', 'subcategory')) ?? '',
    education_level: coded('education_level', 'education_level', educationCode, 'education level') ?? '',
    min_years_experience: leadingInteger(raw('min_years_experience', 'min_years_experience'), 'min_years_experience', notes),
    worksite: coded('worksite', 'worksite', worksiteName, 'worksite') ?? '',
    security_clearance: coded('security_clearance', 'security_clearance', clearanceName, 'security clearance'),
    business_size: coded('business_size', 'business_size', businessSizeCode, 'business size') ?? '',
    current_price: currentPrice,
    next_year_price: laterPrice('next_year_price', 'next_year_price', 1),
    second_year_price: laterPrice('second_year_price', 'second_year_price', 2),
    contract_start: contractStart,
    contract_end: contractEnd,
    cont_beg_dtg: contBeg,
    cont_end_dtg: contEnd,
    dt_termg: dtTermg,
    _timestamp: text(row.get('_timestamp')) ?? context.timestamp,
  };
  return { ok: true, record };
}
