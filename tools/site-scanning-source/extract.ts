/**
 * Writes data/'s Site Scanning weeks (weeks-file.ts) from a fetched copy of the weekly snapshot repository, every
 * week less its stale files (git-weeks.ts STALE_RULE, the one rule):
 *   tsx tools/site-scanning-source/extract.ts --git <bare git dir> [--out data] [--quality 9]
 * - `site-scanning-<newest>.json.br`: the newest week's records, a JSON array of the published records exactly as
 *   the job copied them (Brotli, quality 11).
 * - `site-scanning-weeks/<date>.changes.json.br`: each older week as its changes against the week after it
 *   (week-changes.ts; Brotli at `--quality`, default 9: several times faster than 11 on these high-entropy changes,
 *   counters and hashes, for a few % more bytes), and `weeks.json`, the weeks with what each selected and dropped.
 * - `sources.json`: where each file came from (repository, commit, date, rule, counts, sha256, licence); the
 *   entries of other files are left as they are.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants } from 'node:zlib';
import { SOURCE_LICENCE, SOURCE_REPOSITORY } from './git-snapshot.ts';
import { gitWeekRecords, gitWeeks, STALE_RULE } from './git-weeks.ts';
import { diffWeek } from './week-changes.ts';
import { newestFile, WEEKS_DIR, WEEKS_INDEX, weekFile, type ShippedWeek, type ShippedWeeks } from './weeks-file.ts';

const { values } = parseArgs({ options: { git: { type: 'string' }, out: { type: 'string', default: 'data' }, quality: { type: 'string', default: '9' } } });
if (!values.git) throw new Error('usage: tsx tools/site-scanning-source/extract.ts --git <bare git dir of the snapshot repository> [--out data] [--quality 9]');
const dir = values.git;
const out = values.out!;
const quality = Number(values.quality);

function brotli(text: string, q: number): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: q, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const started = performance.now();
const seconds = (): string => ((performance.now() - started) / 1000).toFixed(0);
const weeks = gitWeeks(dir);
const newest = weeks[weeks.length - 1];
await mkdir(join(out, WEEKS_DIR), { recursive: true });

let newer = gitWeekRecords(dir, newest);
const newestBytes = brotli(JSON.stringify([...newer.values()]), 11);
await writeFile(join(out, newestFile(newest.date)), newestBytes);
console.log(
  `${newestFile(newest.date)}: ${newer.size} records (${newest.stale.size} stale of ${newest.files} files dropped), ${newestBytes.length} bytes (${seconds()} s)`,
);
const shipped: ShippedWeek[] = [{ date: newest.date, commit: newest.commit, files: newest.files, dropped: newest.stale.size, count: newer.size }];
for (const week of weeks.slice(0, -1).reverse()) {
  const records = gitWeekRecords(dir, week);
  const change = diffWeek(week.date, newer, records);
  const bytes = brotli(JSON.stringify(change), quality);
  await writeFile(join(out, weekFile(week.date)), bytes);
  shipped.unshift({
    date: week.date,
    commit: week.commit,
    files: week.files,
    dropped: week.stale.size,
    count: records.size,
    bytes: bytes.length,
    sha256: sha256(bytes),
  });
  console.log(
    `${week.date} @ ${week.commit.slice(0, 8)}: ${records.size} selected, ${week.stale.size} stale of ${week.files}; ` +
      `${change.changed.length} differ from the week after, ${change.added.length} only here, ${change.absent.length} absent; ${bytes.length} bytes (${seconds()} s)`,
  );
  newer = records;
}
// The first week the job copied lists far fewer sites than any after it: its trends' start is marked partial.
const [first, ...later] = shipped;
const counts = later.map((w) => w.count);
first.partial =
  `the first week copied: ${first.count.toLocaleString('en-US')} sites, against ${Math.min(...counts).toLocaleString('en-US')} to ` +
  `${Math.max(...counts).toLocaleString('en-US')} in every week after it`;
const file: ShippedWeeks = { weeks: shipped };
await writeFile(join(out, WEEKS_INDEX), JSON.stringify(file, null, 2) + '\n');
const total = shipped.reduce((n, w) => n + (w.bytes ?? 0), 0);
console.log(`${WEEKS_DIR}: ${shipped.length} weeks, ${shipped.length - 1} files of changes, ${total} bytes`);

const previous = JSON.parse(await readFile(join(out, 'sources.json'), 'utf8').catch(() => '{}')) as Record<string, unknown>;
const sources: Record<string, unknown> = Object.fromEntries(Object.entries(previous).filter(([name]) => !name.startsWith('site-scanning')));
sources[newestFile(newest.date)] = {
  what: 'Site Scanning: the newest week, the published weekly snapshot of every federal website scanned (weekly-snapshot-all.json), one record per site',
  repository: SOURCE_REPOSITORY,
  commit: newest.commit,
  date: newest.date,
  rule: STALE_RULE,
  files: newest.files,
  dropped: newest.stale.size,
  count: shipped[shipped.length - 1].count,
  sha256: sha256(newestBytes),
  bytes: newestBytes.length,
  licence: SOURCE_LICENCE,
  note: 'scan_date is absent: the copying job deleted it (with cumulative_layout_shift and largest_contentful_paint) from 2025-02-18 on',
};
sources[WEEKS_DIR] = {
  what: `Site Scanning: every week from ${shipped[0].date} to ${newest.date} (${shipped.length} weeks), each older week as the fields that differ from the week after it, the sites only it had and the sites it did not have (one file per week, listed in weeks.json); the newest is ${newestFile(newest.date)}`,
  repository: SOURCE_REPOSITORY,
  commit: newest.commit,
  date: newest.date,
  from: shipped[0].date,
  rule: STALE_RULE,
  count: shipped.reduce((n, w) => n + w.count, 0),
  bytes: total,
  licence: SOURCE_LICENCE,
};
await writeFile(join(out, 'sources.json'), JSON.stringify(sources, null, 2) + '\n');
