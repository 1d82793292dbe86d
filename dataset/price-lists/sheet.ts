/**
 * A GSA Catalog Platform price list (the `.xlsx` a contractor's MAS catalog exports: sheets `Contractor Info`,
 * `Price List`, `Pricing Reference`), read from its sheets' cells into the facts this project stores: the
 * contract's numbers and dates and each hourly labor row's title, codes and prices. Contacts (administrator,
 * phone, e-mail) and the vendor-written descriptions are never read.
 */

/** One cell as the sheet reader gives it. */
export type Cell = string | number | boolean | Date | null | undefined | object;
export type SheetRows = readonly (readonly Cell[])[];

/** One hourly labor-category row, in the list's own words (`Bachelors`, `Customer_Facility`, `No`). */
export interface PriceListRow {
  title: string;
  sin: string;
  worksite: string | null;
  education: string | null;
  /** The list's "Minimum Years of Education" column: it holds the years of experience. */
  minYears: number | null;
  clearance: string | null;
  /** GSA price with IFF as of the list's generation date. */
  price: number;
  /** The price for the contract year after the current one, and the one after that (null where the list has none). */
  nextYear: number | null;
  secondYear: number | null;
}

export interface PriceList {
  contract: string;
  vendor: string;
  /** YYYY-MM-DD, the day the catalog generated the list; `generatedAt` is the full time. */
  generated: string;
  generatedAt: string;
  /** YYYY-MM-DD, or null when the sheet leaves them out. */
  start: string | null;
  optionEnd: string | null;
  end: string | null;
  contractYear: number | null;
  rows: PriceListRow[];
  /** Rows of the price list that are not hourly labor categories (products, fixed-price services, …). */
  otherRows: number;
}

/** A file that is not a Catalog Platform price list; the message is written for the user. */
export class PriceListError extends Error {
  override readonly name = 'PriceListError';
}

export const PRICE_LIST_SHEETS = { info: 'Contractor Info', prices: 'Price List' } as const;

/** The labor kind and unit the ceiling rates hold (data-sources.md). */
const LABOR_TYPE = 'Commercial_Labor_Category';
const HOURLY_UNIT = 'HR';

const COLUMNS = {
  title: 'Title',
  sin: 'SIN',
  worksite: 'Predominant Work Site',
  unit: 'Unit of Measure',
  price: 'GSA Price with IFF - as of price list generation date',
  education: 'Minimum Education',
  minYears: 'Minimum Years of Education',
  clearance: 'Security Clearance Required',
  type: 'Catalog Item Type',
} as const;

const squeeze = (value: string): string => value.replace(/\s+/g, ' ').trim();

function text(cell: Cell): string | null {
  if (cell === null || cell === undefined) return null;
  if (cell instanceof Date) return cell.toISOString();
  if (typeof cell === 'object') return null;
  const value = String(cell).trim();
  return value === '' ? null : value;
}

function numeric(cell: Cell): number | null {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  const value = text(cell);
  if (value === null) return null;
  const parsed = Number(value.replace(/[$,]/g, ''));
  return Number.isFinite(parsed) ? parsed : null;
}

/** YYYY-MM-DD of an ISO text, a Date or an Excel serial day; null when it is none of them. */
function day(cell: Cell): string | null {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? null : cell.toISOString().slice(0, 10);
  if (typeof cell === 'number') return new Date(Math.round((cell - 25569) * 86400000)).toISOString().slice(0, 10);
  const value = text(cell);
  if (value === null) return null;
  const iso = /^(\d{4}-\d{2}-\d{2})/.exec(value);
  if (iso) return iso[1];
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  return us ? `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}` : null;
}

/** The `Contractor Info` sheet: a label in the first column, its value in the second. */
function infoValues(rows: SheetRows): Map<string, Cell> {
  const values = new Map<string, Cell>();
  for (const row of rows) {
    const label = text(row[0]);
    if (label !== null && !values.has(label)) values.set(squeeze(label), row[1]);
  }
  return values;
}

const notAList = (why: string): PriceListError => new PriceListError(`This file is not a GSA Catalog Platform price list (${why}). Nothing was changed.`);

/**
 * The price list's facts from its two sheets' cells. The header of `Price List` is found by name; the year labels
 * (`Year 6`, `Year 7`, …) under the (A)…(E) price columns say which column holds next year's price.
 */
export function readPriceListSheets(info: SheetRows, prices: SheetRows): PriceList {
  const facts = infoValues(info);
  const contract = text(facts.get('Vendor Contract Number') ?? null);
  const vendor = text(facts.get('Vendor Name') ?? null);
  const generatedAt = text(facts.get('Price List Generation Date') ?? null);
  if (contract === null || vendor === null) throw notAList('its Contractor Info sheet names no vendor or contract number');
  const generated = day(generatedAt);
  if (generatedAt === null || generated === null) throw notAList('its Contractor Info sheet has no price list generation date');

  const headerAt = prices.findIndex((row) => row.some((cell) => typeof cell === 'string' && squeeze(cell) === COLUMNS.title));
  if (headerAt < 0) throw notAList('its Price List sheet has no Title column');
  const header = prices[headerAt].map((cell) => (typeof cell === 'string' ? squeeze(cell) : ''));
  const at = Object.fromEntries(Object.entries(COLUMNS).map(([key, name]) => [key, header.indexOf(name)])) as Record<keyof typeof COLUMNS, number>;
  const missing = Object.entries(at).filter(([, index]) => index < 0);
  if (missing.length) throw notAList(`its Price List sheet lacks ${missing.map(([key]) => `"${COLUMNS[key as keyof typeof COLUMNS]}"`).join(', ')}`);

  const contractYear = numeric(facts.get('Contract Year (as of price list generation)') ?? null);
  // The year labels sit in the rows right under the header, above the first item.
  const yearColumn = new Map<number, number>();
  for (const row of prices.slice(headerAt + 1, headerAt + 3)) {
    row.forEach((cell, index) => {
      const label = /^Year (\d+)$/.exec(text(cell) ?? '');
      if (label && header[index].startsWith('GSA Price with IFF (')) yearColumn.set(Number(label[1]), index);
    });
  }
  const yearPrice = (row: readonly Cell[], offset: number): number | null => {
    const index = contractYear === null ? undefined : yearColumn.get(contractYear + offset);
    return index === undefined ? null : numeric(row[index]);
  };

  const rows: PriceListRow[] = [];
  let otherRows = 0;
  for (const row of prices.slice(headerAt + 1)) {
    const type = text(row[at.type]);
    if (type === null) continue;
    const title = text(row[at.title]);
    const price = numeric(row[at.price]);
    if (type !== LABOR_TYPE || text(row[at.unit]) !== HOURLY_UNIT || title === null || price === null) {
      otherRows++;
      continue;
    }
    rows.push({
      title: String(row[at.title]),
      sin: text(row[at.sin]) ?? '',
      worksite: text(row[at.worksite]),
      education: text(row[at.education]),
      minYears: numeric(row[at.minYears]),
      clearance: text(row[at.clearance]),
      price,
      nextYear: yearPrice(row, 1),
      secondYear: yearPrice(row, 2),
    });
  }
  return {
    contract,
    vendor,
    generated,
    generatedAt: new Date(generatedAt).toISOString(),
    start: day(facts.get('Contract Begin Date') ?? null),
    optionEnd: day(facts.get('Option Period End Date (as of price list generation)') ?? null),
    end: day(facts.get('Ultimate Contract End Date') ?? null),
    contractYear,
    rows,
    otherRows,
  };
}
