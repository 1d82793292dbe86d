/**
 * export=y over hostile records: every cell comes back exactly (commas, quotes, CR/LF quoted correctly),
 * and a cell a spreadsheet would run as a formula (first character `= + - @ |`) gets a leading `'`
 * (docs/api/ceiling-rates.md, CSV export), in data rows and in the metadata rows that echo the query.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import type { Engine } from '../../../engine/index.ts';
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';
import { HOSTILE_PAYLOADS, hostileCeilingRates } from '../../../tools/generate/hostile.ts';
import { hostileOnlyEngine } from './fixtures.ts';

const RATES = '/api/v3/search/ceilingrates/';
let engine: Engine;
const rates = hostileCeilingRates();

beforeAll(async () => {
  engine = await hostileOnlyEngine();
});

/** The export's columns: the header row the importer reads, and the field under each title. */
const COLUMNS: readonly (readonly [string, keyof CeilingRateRecord])[] = [
  ['Contract #', 'idv_piid'],
  ['Business Size', 'business_size'],
  ['Schedule', 'schedule'],
  ['Site', 'worksite'],
  ['Begin Date', 'contract_start'],
  ['End Date', 'contract_end'],
  ['SIN', 'sin'],
  ['Vendor Name', 'vendor_name'],
  ['Labor Category', 'labor_category'],
  ['education Level', 'education_level'],
  ['Minimum Years Experience', 'min_years_experience'],
  ['Current Year Labor Price', 'current_price'],
  ['Next Year Labor Price', 'next_year_price'],
  ['Second Year Labor Price', 'second_year_price'],
  ['Security Clearance', 'security_clearance'],
  ['Category', 'category'],
  ['Subcategory', 'subcategory'],
];

/** OWASP's formula starts: `= + - @ |`, tab, carriage return. */
const FORMULA_START = /^[=+\-@|\t\r]/;
/** What a cell must read as once a CSV parser has unquoted it: text guarded, numbers as numbers. */
const guarded = (value: string | number | null): string => {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  return FORMULA_START.test(value) ? `'${value}` : value;
};

function exportOf(query: string): { raw: string; rows: string[][] } {
  const response = engine.handle({ method: 'GET', url: `${RATES}?export=y&${query}` });
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  const raw = response.body;
  expect(raw.endsWith('\r\n')).toBe(true);
  const parsed = Papa.parse<string[]>(raw.slice(0, -2), { delimiter: ',', newline: '\r\n', quoteChar: '"' });
  expect(parsed.errors).toEqual([]);
  return { raw, rows: parsed.data };
}

describe('export=y over hostile records', () => {
  it('every cell reads back exactly, formula starts guarded, in the request order', () => {
    const { rows } = exportOf('page_size=500');
    expect(rows[2]).toEqual(COLUMNS.map(([title]) => title));
    const data = rows.slice(3);
    // Default order is current_price ascending, and the hostile prices rise with the payload index.
    expect(data.length).toBe(rates.length);
    data.forEach((row, i) => {
      expect(row, HOSTILE_PAYLOADS[i].name).toEqual(COLUMNS.map(([, field]) => guarded(rates[i][field])));
    });
  });

  it('no cell starts with a formula character, and each guarded payload really needed it', () => {
    const { rows } = exportOf('');
    const cells = rows.flat();
    for (const cell of cells) expect(cell).not.toMatch(FORMULA_START);
    for (const name of ['formula-equals', 'formula-plus', 'formula-minus', 'formula-at', 'formula-pipe', 'formula-hyperlink']) {
      const text = HOSTILE_PAYLOADS.find((p) => p.name === name)!.text;
      expect(FORMULA_START.test(text)).toBe(true);
      expect(cells).toContain(`'${text}`);
      expect(cells).not.toContain(text);
    }
  });

  it('cells with quotes, line breaks or any separator a spreadsheet may split on (, ; tab |) are quoted with doubled quotes, and others are not', () => {
    const { raw } = exportOf('');
    for (const { name, text } of HOSTILE_PAYLOADS) {
      const cell = guarded(text);
      if (/[",;\t|\r\n]/.test(cell)) expect(raw.includes(`,"${cell.replace(/"/g, '""')}",`), name).toBe(true);
      else expect(raw.includes(`,${cell},`), name).toBe(true);
    }
  });

  it('the metadata rows echo hostile query text guarded and quoted', () => {
    const formula = "=cmd|' /C calc'!A0";
    const { rows } = exportOf(`keyword=${encodeURIComponent(formula)}&filter=${encodeURIComponent('sin:"a",b')}`);
    expect(rows[0]).toEqual(['Search query', `'${formula}`]);
    expect(rows[1]).toEqual(['Filters', 'sin:"a",b']);
    // No record has that SIN: the metadata rows stand alone.
    expect(rows.slice(3)).toEqual([]);
    const alone = exportOf(`keyword=${encodeURIComponent(formula)}`).rows;
    expect(alone[0]).toEqual(['Search query', `'${formula}`]);
    const containing = rates.filter((r) => r.idv_piid.toLowerCase().includes(formula.toLowerCase()));
    expect(containing.length).toBe(2);
    expect(alone.slice(3).map((row) => row[0])).toEqual(containing.map((r) => guarded(r.idv_piid)));
  });

  it('a search matching one hostile record exports just that record', () => {
    for (const [i, { name, text }] of HOSTILE_PAYLOADS.entries()) {
      // A colon in the text ends a search's text there, as production reads it (recorded.test.ts, point 7).
      if (text.includes(':')) continue;
      const { rows } = exportOf(`search=vendor_name:${encodeURIComponent(text)}`);
      expect(rows.slice(3), name).toEqual([COLUMNS.map(([, field]) => guarded(rates[i][field]))]);
    }
  });
});
