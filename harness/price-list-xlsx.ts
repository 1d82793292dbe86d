/**
 * Writes a small `.xlsx` in the GSA Catalog Platform price-list layout (sheets `Contractor Info`, `Price List`,
 * `Pricing Reference`), made up for tests: the real lists carry contacts' names, phones and e-mails, which the
 * repository never ships. The layout (header, the year-label rows under the (A)…(E) price columns, the labels of
 * `Contractor Info`) is the real one's.
 */
import { strToU8, zipSync } from 'fflate';

export interface FixtureRow {
  title: string;
  price: number;
  education?: string;
  minYears?: number;
  sin?: string;
  worksite?: string;
  clearance?: string;
  type?: string;
  unit?: string;
  /** Prices for the years (A)…(E); default: price grows 2.5% a year from column A. */
  years?: (number | null)[];
}

export interface FixtureList {
  contract: string;
  vendor: string;
  /** ISO time; default 2025-09-22T18:27:01.897Z. */
  generated?: string;
  contractYear?: number;
  /** The contract year that column (A) holds: 1, 6, 11 or 16. */
  firstYear?: number;
  rows: FixtureRow[];
}

const HEADER = [
  'Vendor Name',
  'Unique Catalog Item ID',
  'Title',
  'Description',
  'SIN',
  'Predominant Work Site',
  'Unit of Measure',
  'GSA Price with IFF  - as of price list generation date',
  'GSA Price with IFF (A)',
  'GSA Price with IFF (B)',
  'GSA Price with IFF (C)',
  'GSA Price with IFF (D)',
  'GSA Price with IFF (E)',
  'Discount offered to GSA off commercial price',
  'Minimum Education',
  'Minimum Years of Education',
  'Education and Experience Substitution',
  'Required Certifications or Licenses',
  'Security Clearance Required',
  'Minimum Security Clearance Level',
  'Catalog Item Type',
];

type Value = string | number | null | undefined;

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function column(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function sheetXml(rows: Value[][]): string {
  const body = rows
    .map((row, r) => {
      const cells = row
        .map((value, c) => {
          if (value === null || value === undefined) return '';
          const ref = `${column(c)}${r + 1}`;
          return typeof value === 'number'
            ? `<c r="${ref}"><v>${value}</v></c>`
            : `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escape(value)}</t></is></c>`;
        })
        .join('');
      return `<row r="${r + 1}">${cells}</row>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
}

/** An `.xlsx` workbook of named sheets, each a grid of values. */
export function workbook(sheets: Record<string, Value[][]>): Uint8Array {
  const names = Object.keys(sheets);
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${names
        .map(
          (_, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join('')}</Types>`,
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${names
        .map((name, i) => `<sheet name="${escape(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
        .join('')}</sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${names
        .map(
          (_, i) =>
            `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
        )
        .join('')}</Relationships>`,
    ),
  };
  names.forEach((name, i) => (files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(sheetXml(sheets[name]))));
  return zipSync(files);
}

/** A made-up price list in the Catalog Platform layout. */
export function priceListXlsx(list: FixtureList): Uint8Array {
  const contractYear = list.contractYear ?? 6;
  const firstYear = list.firstYear ?? Math.floor((contractYear - 1) / 5) * 5 + 1;
  const info: Value[][] = [
    ['Vendor Name', list.vendor],
    ['Vendor UEI', 'TESTUEI00001'],
    ['Vendor Contract Number', list.contract],
    ['NAICS', '541611'],
    ['Price List Generation Date', list.generated ?? '2025-09-22T18:27:01.897Z'],
    ['Contract Begin Date', '2020-06-01T00:00:00.000Z'],
    ['Contract Year (as of price list generation)', contractYear],
    ['Option Period End Date (as of price list generation)', '2030-05-31T00:00:00.000Z'],
    ['Ultimate Contract End Date', '2040-05-31T00:00:00.000Z'],
  ];
  const years: Value[] = Array.from({ length: 5 }, (_, i) => `Year ${firstYear + i}`);
  const prices: Value[][] = [
    HEADER,
    [null, null, null, null, null, null, null, null, ...years],
    [null, null, null, null, null, null, null, null, '6/1/2025 -'],
  ];
  list.rows.forEach((row, i) => {
    const ladder = row.years ?? Array.from({ length: 5 }, (_, y) => Math.round(row.price * 1.025 ** (y - (contractYear - firstYear)) * 100) / 100);
    prices.push([
      list.vendor,
      `ITEM-${i + 1}`,
      row.title,
      'A made-up description the reader must never keep.',
      row.sin ?? '541611',
      row.worksite ?? 'Contractor_Facility',
      row.unit ?? 'HR',
      row.price,
      ...ladder,
      null,
      row.education ?? 'Bachelors',
      row.minYears ?? 5,
      null,
      null,
      row.clearance ?? 'No',
      null,
      row.type ?? 'Commercial_Labor_Category',
    ]);
  });
  return workbook({ 'Contractor Info': info, 'Price List': prices, 'Pricing Reference': [[null, 'Code', 'Description']] });
}
