import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { snapshotLines } from '../../../tools/make-snapshot.ts';
import { SNAPSHOT_COLUMNS } from '../../../dataset/import/websites/snapshot-columns.ts';
import { generateWebsites } from '../../../tools/generate/websites.ts';
import { readAll } from './helpers.ts';
import { NO_FURTHER_FIELDS, type WebsiteRecord } from '../../../engine/site-scanning/record.ts';

describe('make-snapshot: a generated snapshot CSV in the real format', () => {
  const text = [...snapshotLines(300, 11)].join('\r\n') + '\r\n';

  it('has the 104 columns in the published order on every row', () => {
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual([...SNAPSHOT_COLUMNS]);
    expect(rows).toHaveLength(301);
    expect(rows.every((row) => row.length === 104)).toBe(true);
  });

  it("imports back into exactly the generator's records (the mapping and its inverse agree)", async () => {
    const { records, report } = await readAll(text);
    expect(report.rowsRejected).toBe(0);
    // The generator makes the interface's and DTO fields; the CSV writer fills the further columns itself.
    const core = (r: WebsiteRecord): Record<string, unknown> => Object.fromEntries(Object.entries(r).filter(([k]) => !(k in NO_FURTHER_FIELDS)));
    expect(records.map(core)).toEqual(generateWebsites(300, 11).map(core));
    const rows = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;
    expect(records.map((r) => r.initial_url)).toEqual(rows.map((r) => r.initial_url || null));
    expect(records.map((r) => r.login)).toEqual(rows.map((r) => (r.login ? (JSON.parse(r.login) as string[]) : null)));
  });
});
