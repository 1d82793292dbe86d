import { describe, expect, it } from 'vitest';
import { csvRows, type CsvRow } from '../../../dataset/import/csv-rows.ts';
import { textChunks } from '../../../dataset/import/source.ts';
import { ImportError } from '../../../dataset/import/errors.ts';
import { inChunks, readAll } from './helpers.ts';

async function rows(parts: string[]): Promise<Pick<CsvRow, 'cells' | 'line'>[]> {
  async function* chunks() {
    let bytesRead = 0;
    for (const text of parts) yield { text, bytesRead: (bytesRead += text.length) };
  }
  const out: Pick<CsvRow, 'cells' | 'line'>[] = [];
  for await (const batch of csvRows(chunks())) out.push(...batch.rows.map(({ cells, line }) => ({ cells, line })));
  return out;
}

/** Every way of cutting the text in two: the parse must not depend on where chunks end. */
function everySplit(text: string): string[][] {
  return Array.from({ length: text.length + 1 }, (_, at) => [text.slice(0, at), text.slice(at)]);
}

const CRLF = 'a,b\r\n"x, y","line one\r\nline two"\r\n\r\nplain,"say ""hi"""\r\n';
const EXPECTED = [
  { cells: ['a', 'b'], line: 1 },
  { cells: ['x, y', 'line one\r\nline two'], line: 2 },
  { cells: ['plain', 'say "hi"'], line: 5 },
];

describe('csvRows (papaparse fed chunk by chunk)', () => {
  it('reads quoted commas, quoted CRLF and doubled quotes, skips blank lines, numbers lines', async () => {
    expect(await rows([CRLF])).toEqual(EXPECTED);
  });

  it('gives the same rows wherever the text is cut, including between CR and LF', async () => {
    for (const parts of everySplit(CRLF)) expect(await rows(parts)).toEqual(EXPECTED);
  });

  it('reads LF files with CRLF inside quoted cells, and CR-only files', async () => {
    expect(await rows(['h1,h2\n"a\r\nb",c\nd,e'])).toEqual([
      { cells: ['h1', 'h2'], line: 1 },
      { cells: ['a\r\nb', 'c'], line: 2 },
      { cells: ['d', 'e'], line: 4 },
    ]);
    expect(await rows(['h1,h2\rx,y\r'])).toEqual([
      { cells: ['h1', 'h2'], line: 1 },
      { cells: ['x', 'y'], line: 2 },
    ]);
  });

  it('throws truncated when the file ends inside a quoted cell', async () => {
    await expect(rows(['a,b\r\n"open, never closed'])).rejects.toMatchObject({ code: 'truncated' });
    await expect(rows(['a,b\r\n"open', ', never closed'])).rejects.toBeInstanceOf(ImportError);
  });
});

describe('text decoding', () => {
  it('drops a UTF-8 BOM from bytes and from a string', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('a,b\n')]);
    for (const source of [bytes, '\uFEFFa,b\n']) {
      let text = '';
      for await (const chunk of textChunks(source)) text += chunk.text;
      expect(text).toBe('a,b\n');
    }
  });

  it('keeps a multi-byte character split across byte chunks', async () => {
    const bytes = new TextEncoder().encode('name\nBachelor’s\n');
    const split = bytes.indexOf(0xe2) + 1;
    async function* pieces() {
      yield bytes.subarray(0, split);
      yield bytes.subarray(split);
    }
    let text = '';
    for await (const chunk of textChunks(pieces())) text += chunk.text;
    expect(text).toBe('name\nBachelor’s\n');
  });

  it("reads a Windows-1252 file (a spreadsheet's CSV) and says so", async () => {
    const header = 'SIN(s),SERVICE PROPOSED (e.g. Job Title/Task),MINIMUM EDUCATION/ CERTIFICATION LEVEL,PRICE OFFERED TO GSA (including IFF)\n';
    const latin = [...header, ...'132-51,Analyst,Bachelor'].map((c) => c.charCodeAt(0));
    const bytes = new Uint8Array([...latin, 0x92, ...[...'s,$50.00\n'].map((c) => c.charCodeAt(0))]);
    const { records, report } = await readAll(bytes);
    expect(records[0]).toMatchObject({ labor_category: 'Analyst', education_level: 'BA', current_price: 50 });
    expect(report.warnings.join(' ')).toMatch(/not UTF-8.*Windows-1252/);
  });
});

describe('chunked sources', () => {
  it('a 2,000-character quoted cell split over many chunks arrives whole', async () => {
    const long = 'é,"\n'.repeat(500);
    const csv = `initial_domain,og_description\r\na.gov,"${long.replace(/"/g, '""')}"\r\n`;
    const { records } = await readAll(inChunks(csv, 3));
    expect(records[0].og_description_final_url).toBe(long);
    expect(long).toHaveLength(2000);
  });
});
