/**
 * The listing order of every week, as the weeks attachment stores it (weeks-writer.ts: target_url in UTF-8 byte
 * order, then source file) and as load:history copies it into Postgres (postgres-weeks.ts), against the import of
 * the same week's file: the same records in the same order, over weeks whose file order, JavaScript's string order
 * and byte order all disagree, and whose sites come, go and change their URL's case.
 */
import { brotliCompressSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { nodeBrotli } from '../../../adapters/node/datasets/brotli-sync.ts';
import { WeeksStore } from '../../../engine/site-scanning/weeks.ts';
import { WeeksWriter } from '../../../engine/site-scanning/weeks-writer.ts';
import { RECORD_COLUMN, SORT_KEY, WEBSITES_TABLE } from '../../../engine/site-scanning/schema.ts';
import { mappedWeek } from '../../../tools/site-scanning-source/weeks-dataset.ts';
import { listedStoredTexts } from '../../../tools/site-scanning-source/postgres-weeks.ts';
import { importIntoDatabase } from '../../../dataset/import/index.ts';
import type { SourceRecord } from '../../../tools/site-scanning-source/week-changes.ts';

const site = (initial_domain: string, extra: Record<string, unknown> = {}): SourceRecord => ({
  initial_domain,
  initial_base_domain: initial_domain.toLowerCase(),
  url: `https://${initial_domain}/`,
  base_domain: initial_domain.toLowerCase(),
  live: true,
  redirect: false,
  agency: initial_domain < 'b' ? 'General Services Administration' : 'Department of Commerce',
  bureau: 'Office of the Secretary',
  primary_scan_status: 'completed',
  uswds_count: 3,
  dap: true,
  ...extra,
});

/** Weeks oldest first, each a site per file (the files in path order, as data/ lists them): file names in the reverse of their sites' order. */
const WEEKS: [string, [string, SourceRecord][]][] = [
  [
    '2025-01-06',
    [
      ['data/a.json', site('zeta.gov')],
      // UTF-16 puts the astral host before U+FF21, UTF-8 after.
      ['data/b.json', site('\uFF21.gov')],
      ['data/c.json', site('\u{1F600}.gov')],
      ['data/d.json', site('Alpha.gov', { dap: false })],
      ['data/f.json', site('beta.gov', { uswds_count: null })],
    ],
  ],
  [
    '2025-01-13',
    [
      ['data/a.json', site('zeta.gov', { uswds_count: 4 })],
      ['data/d.json', site('alpha.gov')],
      ['data/g.json', site('gamma.gov')],
    ],
  ],
  [
    '2025-01-20',
    [
      ['data/a.json', site('zeta.gov', { uswds_count: 4 })],
      ['data/c.json', site('\u{1F600}.gov', { live: false })],
      ['data/g.json', site('gamma.gov')],
    ],
  ],
];

it('lists every week as the import of its file does, in the weeks as stored and in what load:history copies', async () => {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  const writer = new WeeksWriter(
    db,
    WEEKS.map(([date]) => ({ date })),
    (raw) => new Uint8Array(brotliCompressSync(raw)),
  );
  for (const [date, files] of [...WEEKS].reverse())
    writer.add(
      date,
      mappedWeek(
        date,
        files.map(([, r]) => r),
      ),
      files.map(([path]) => path),
    );
  writer.finish();
  const store = new WeeksStore(db, nodeBrotli);
  for (const [date, files] of WEEKS) {
    const records = files.map(([, r]) => r);
    const bytes = new TextEncoder().encode(JSON.stringify(records));
    const { db: week } = await importIntoDatabase(SQL, bytes, { name: `site-scanning-${date}.json`, format: 'websites-json', snapshotDate: date });
    const want = week.exec(`SELECT ${RECORD_COLUMN} FROM ${WEBSITES_TABLE} ORDER BY ${SORT_KEY}`)[0].values.map(([text]) => String(text));
    week.close();
    const reader = store.reader(store.week(date)!);
    const positions = reader.select({});
    expect(reader.page(positions, 0, positions.length), date).toEqual(want);
    expect(listedStoredTexts(date, records), date).toEqual(want);
  }
  // The URL whose case changed is one site: its versions, not two sites.
  expect(store.timeline('alpha.gov')!.map((w) => w.state)).toEqual(['present', 'present', 'absent']);
  db.close();
});
