import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { snapshotLines } from '../../../tools/make-snapshot.ts';
import { SNAPSHOT_COLUMNS } from '../../../dataset/import/websites/snapshot-columns.ts';
import { generateWebsites } from '../../../tools/generate/websites.ts';
import { readAll } from './helpers.ts';

describe('make-snapshot: a generated snapshot CSV in the real format', () => {
  const text = [...snapshotLines(300, 11)].join('\r\n') + '\r\n';

  it('has the 104 columns in the published order on every row', () => {
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual([...SNAPSHOT_COLUMNS]);
    expect(rows).toHaveLength(301);
    expect(rows.every((row) => row.length === 104)).toBe(true);
  });

  it('imports back into exactly the generator\'s records (the mapping and its inverse agree)', async () => {
    const { records, report } = await readAll(text);
    expect(report.rowsRejected).toBe(0);
    expect(records).toEqual(generateWebsites(300, 11));
  });
});
