/**
 * Regressions for hostile or damaged files, each with its reproducer at CI size: a long digit run in a
 * number, a stray invalid byte, mixed line breaks, one unstorable record, cells and files without bounds,
 * misleading error names. Behaviour only; the times and memory figures are measured by
 * scripts/measure-import.ts (docs/decisions/0505).
 */
import { describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { importIntoDatabase } from '../../../dataset/import/into-database.ts';
import { ImportError } from '../../../dataset/import/errors.ts';
import { MAX_CELL } from '../../../dataset/import/csv-rows.ts';
import { MAX_QUOTED } from '../../../dataset/import/report.ts';
import { number } from '../../../dataset/import/values.ts';
import { readAll } from './helpers.ts';

const HEADER =
  'Contract #,Business Size,Schedule,Site,Begin Date,End Date,SIN,Vendor Name,Labor Category,education Level,Minimum Years Experience,Current Year Labor Price,Next Year Labor Price,Second Year Labor Price';

function rateRow(i: number, vendor = `Café ${i}`, price = `${100 + (i % 50)}.25`): string {
  return `GS-${i},S,MAS,Customer,1/5/2020,1/4/2025,54151S,${vendor},Engineer ${i % 7},Bachelors,5,${price},,`;
}

function rates(rows: number, eol = '\r\n'): string {
  return [HEADER, ...Array.from({ length: rows }, (_, i) => rateRow(i + 1))].join(eol) + eol;
}

async function failure(run: Promise<unknown>): Promise<ImportError> {
  try {
    await run;
  } catch (error) {
    if (error instanceof ImportError) return error;
    throw error;
  }
  throw new Error('the import did not fail');
}

const notes = { note() {} };

describe('4. a long digit run in a number field', () => {
  it('the number check rejects a 1 MB digit run followed by a letter (it was quadratic: 100 KB took 25 s)', () => {
    expect(number(`${'1'.repeat(1 << 20)}x`, 'current_price', notes)).toBeNull();
    expect(number('1'.repeat(300), 'current_price', notes)).toBe(Number('1'.repeat(300)));
  });

  it('a 60,000-digit price (under the cell bound) rejects its row with a short reason; the import finishes', async () => {
    const csv = [HEADER, rateRow(1), rateRow(2, 'Acme', `${'1'.repeat(60_000)}x`), rateRow(3)].join('\n') + '\n';
    const { records, report } = await readAll(csv);
    expect(records.map((r) => r.idv_piid)).toEqual(['GS-1', 'GS-3']);
    expect(report.rejected).toHaveLength(1);
    expect(report.rejected[0].line).toBe(3);
    expect(report.rejected[0].reason).toMatch(/^current price "1{200}"… \(60,001 characters\) is not a number$/);
  });

  it('the reproducer at 1 MB (Engineer, + digits + x) is rejected for its cell length and the import finishes', async () => {
    const csv = `Labor Category,Current Year Labor Price\nEngineer,${'1'.repeat(1 << 20)}x\nAnalyst,90\n`;
    const { records, report } = await readAll(csv);
    expect(records).toHaveLength(1);
    expect(report.rejected[0]).toMatchObject({
      line: 2,
      reason: `field 2 is longer than ${MAX_CELL.toLocaleString('en-US')} characters (the limit for one cell)`,
    });
  });

  it('a cancel during the encoding check of a large file stops the import', async () => {
    const bytes = new TextEncoder().encode(rates(60_000));
    const controller = new AbortController();
    const SQL = await loadSqlJs();
    const run = importIntoDatabase(SQL, bytes, { signal: controller.signal });
    controller.abort();
    expect((await failure(run)).code).toBe('cancelled');
  });
});

describe('5. one invalid byte in a UTF-8 file', () => {
  it('rejects only the row holding it; every other row keeps its accents; the report names the byte', async () => {
    const bytes = new TextEncoder().encode(rates(20_000));
    const at = bytes.indexOf(0x0a, 1 << 20) + 30; // inside a row past the first MB
    bytes[at] = 0xff;
    const { records, report } = await readAll(bytes);
    expect(report.encoding).toBe('utf-8');
    expect(report.rowsRead).toBe(20_000);
    expect(report.rowsRejected).toBe(1);
    expect(report.rejected[0].reason).toMatch(/not valid UTF-8/);
    expect(records).toHaveLength(19_999);
    expect(records.every((r) => /^Café \d+$/.test(r.vendor_name))).toBe(true);
    expect(report.warnings.join(' ')).toMatch(new RegExp(`one byte.*0xFF at offset ${at.toLocaleString('en-US')}`));
  });

  it('a Windows-1252 file is read as Windows-1252 from its first byte to its last, and the report says so', async () => {
    const text = rates(20_000, '\n');
    const bytes = Uint8Array.from(text, (c) => (c === 'é' ? 0xe9 : c.charCodeAt(0)));
    const { records, report } = await readAll(bytes);
    expect(report.encoding).toBe('windows-1252');
    expect(report.warnings.join(' ')).toMatch(/0xE9 at offset .*Windows-1252/);
    expect(records).toHaveLength(20_000);
    expect(records.every((r) => /^Café \d+$/.test(r.vendor_name))).toBe(true);
  });

  it('a one-shot stream that is not UTF-8 fails with that reason instead of being decoded two ways', async () => {
    const bytes = new TextEncoder().encode(rates(10));
    bytes[bytes.length - 20] = 0xff;
    async function* stream() {
      yield bytes.subarray(0, 100);
      yield bytes.subarray(100);
    }
    const error = await failure(readAll(stream()));
    expect(error.code).toBe('malformed');
    expect(error.message).toMatch(/not valid UTF-8/);
  });
});

describe('6. mixed line endings', () => {
  const lines = [HEADER, ...Array.from({ length: 6 }, (_, i) => rateRow(i + 1))];
  const join = (breaks: string[]): string => lines.map((line, i) => line + breaks[i % breaks.length]).join('');

  it('every mix of CRLF, LF and CR gives the same records on the same lines, with no CR in any cell', async () => {
    const reference = await readAll(join(['\n']));
    expect(reference.records).toHaveLength(6);
    const mixes = [['\r\n'], ['\r'], ['\n', '\r\n'], ['\r\n', '\n'], ['\r\n', '\r', '\n'], ['\n', '\n', '\r\n', '\r']];
    // The two defects seen: an LF header over CRLF rows, and CRLF rows followed by LF rows.
    mixes.push(
      lines.map((_, i) => (i === 0 ? '\n' : '\r\n')),
      lines.map((_, i) => (i < 3 ? '\r\n' : '\n')),
    );
    for (const breaks of mixes) {
      const { records, report } = await readAll(join(breaks));
      expect(records).toEqual(reference.records);
      expect(report.rowsRead).toBe(6);
      expect(report.rowsRejected).toBe(0);
      expect(JSON.stringify(records)).not.toMatch(/\\r/);
    }
  });
});

describe('7. one record that cannot be stored', () => {
  const hit = (id: unknown, extra: Record<string, unknown> = {}) => ({
    _source: { id, labor_category: 'Engineer', current_price: 100, vendor_name: 'Acme', ...extra },
  });

  it('ids of 1e300 and 2^53 + 1 reject their rows by id; the rest are imported into the database', async () => {
    const page = JSON.stringify({ hits: { hits: [hit(1), hit(1e300), hit(2 ** 53 + 2), hit(4)] } });
    const SQL = await loadSqlJs();
    const { db, report } = await importIntoDatabase(SQL, page);
    expect(db.exec('SELECT id FROM ceilingrates ORDER BY id')[0].values).toEqual([[1], [4]]);
    expect(report.rejected).toEqual([
      { line: null, record: 2, reason: 'id "1e+300" is not a whole number below 2^53' },
      { line: null, record: 3, reason: 'id "9007199254740994" is not a whole number below 2^53' },
    ]);
    db.close();
  });

  it('a value nested 100,000 deep rejects its record, not the file', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const text = `[{"initial_domain":"a.gov"},{"initial_domain":"b.gov","dap_parameters":${deep}},{"initial_domain":"c.gov"}]`;
    const SQL = await loadSqlJs();
    const { db, report } = await importIntoDatabase(SQL, text);
    expect(db.exec('SELECT target_url FROM websites ORDER BY target_url')[0].values).toEqual([['a.gov'], ['c.gov']]);
    expect(report.rejected).toEqual([{ line: null, record: 2, reason: 'value of "dap_parameters" is nested more than 32 levels deep' }]);
    db.close();
  });
});

describe('8. bounds on cells, reasons and messages', () => {
  it('a file ending inside a 2 MB quoted cell is truncated, naming the line the cell opened on', async () => {
    const csv = `${rates(3)}GS-4,S,MAS,Customer,1/5/2020,1/4/2025,54151S,"${'x'.repeat(2 << 20)}`;
    const error = await failure(readAll(csv));
    expect(error.code).toBe('truncated');
    expect(error.message).toMatch(/quoted cell \(opened on line 5\)/);
  });

  it('a 1 MB quoted cell with line breaks rejects its row only; the rows after it keep their line numbers', async () => {
    const big = 'a\n'.repeat(1 << 19);
    const csv = `${HEADER}\n${rateRow(1)}\n${rateRow(2, `"${big}"`)}\n${rateRow(3)}\n`;
    const { records, report } = await readAll(csv);
    expect(records.map((r) => r.idv_piid)).toEqual(['GS-1', 'GS-3']);
    expect(report.rejected).toEqual([
      { line: 3, record: 2, reason: `field 8 is longer than ${MAX_CELL.toLocaleString('en-US')} characters (the limit for one cell)` },
    ]);
    expect(report.rowsRead).toBe(3);
  });

  it('reasons and value examples quote at most a couple of hundred characters of a cell', async () => {
    const long = 'y'.repeat(60_000);
    const csv = [HEADER, rateRow(1, 'Acme', `${long}`), rateRow(2, 'Acme', '100').replace(',Bachelors,', `,${long},`)].join('\n') + '\n';
    const { report } = await readAll(csv);
    const text = JSON.stringify(report);
    expect(text.length).toBeLessThan(8 * MAX_QUOTED + 4000);
    expect(report.rejected[0].reason.length).toBeLessThan(MAX_QUOTED + 100);
    const education = report.values.find((note) => note.field === 'education_level');
    expect(education?.examples[0].original).toMatch(/^y{200}… \(60,000 characters\)$/);
  });

  it('a JSON parse error on a long line quotes none of it beyond the bound', async () => {
    const error = await failure(readAll(`[{"initial_domain":"a.gov","x":"${'z'.repeat(100_000)}" "y"}]`));
    expect(error.code).toBe('malformed');
    expect(error.message.length).toBeLessThan(MAX_QUOTED + 200);
  });
});

describe('9. error names', () => {
  it('extra text after a JSON document is malformed, not truncated', async () => {
    const error = await failure(readAll('[{"initial_domain":"a.gov"}] trailing garbage'));
    expect(error.code).toBe('malformed');
    expect(error.message).toMatch(/extra text after its data at character 29/);
    // A JSON file that stops early is still truncated.
    expect((await failure(readAll('[{"initial_domain":"a.gov"},'))).code).toBe('truncated');
  });

  it('UTF-16 with a BOM (and without one) is read as UTF-16, not called binary', async () => {
    const text = rates(50);
    const le = new Uint8Array(2 + text.length * 2);
    le.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      le[2 + 2 * i] = text.charCodeAt(i) & 0xff;
      le[3 + 2 * i] = text.charCodeAt(i) >> 8;
    }
    const be = new Uint8Array(le.length);
    for (let i = 0; i < le.length; i += 2) [be[i], be[i + 1]] = [le[i + 1], le[i]];
    const reference = await readAll(text);
    for (const [bytes, encoding] of [
      [le, 'utf-16le'],
      [be, 'utf-16be'],
      [le.subarray(2), 'utf-16le'],
    ] as const) {
      const { records, report } = await readAll(bytes);
      expect(report.encoding).toBe(encoding);
      expect(records).toEqual(reference.records);
    }
  });
});
