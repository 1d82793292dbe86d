/**
 * Writes the repository's real Site Scanning data from a fetched copy of the weekly snapshot repository:
 *   tsx tools/site-scanning-source/extract.ts --git <bare git dir> [--out data] [--history DIR]
 *
 * - `site-scanning-2025-06-09.json.br`: the current records of the 2025-06-09 commit, a JSON array of the
 *   published snapshot's records exactly as the job copied them (Brotli). The job never deleted a file, so a site
 *   dropped from the published snapshot kept its old file: those stale files are left out (STALE_RULE).
 * - `site-scanning-2025-02-10.changes.json.br`: the first weekly snapshot as field-by-field changes against
 *   2025-06-09 (applyWeek in engine/site-scanning/week-changes.ts rebuilds it).
 * - `sources.json`: where each file came from (repository, commit, date, rule, counts, sha256, licence).
 * - With --history: every weekly snapshot as changes against the week after it, in one file under DIR, and what
 *   each week kept and dropped (too large to ship in the repository: its size is printed). Stale files are told
 *   in every week by history.ts; `npm run load:history` loads the same weeks into Postgres.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants } from 'node:zlib';
import { createHash } from 'node:crypto';
import { SOURCE_LICENCE, SOURCE_REPOSITORY, commitDate, fullCommit, listBlobs, readBlobs } from './git-snapshot.ts';
import { diffWeek, type SourceRecord, type WeekChanges } from '../../engine/site-scanning/week-changes.ts';
import { historyWeeks, weekRecords as historyWeekRecords } from './history.ts';

const { values } = parseArgs({
  options: {
    git: { type: 'string' },
    out: { type: 'string', default: 'data' },
    history: { type: 'string' },
  },
});
if (!values.git)
  throw new Error('usage: tsx tools/site-scanning-source/extract.ts --git <bare git dir of the snapshot repository> [--out data] [--history DIR]');
const dir = values.git;
const out = values.out!;

/** The newest weekly commit; the commit whose blobs a stale file still has (the parent of 0bc252aa); the first week. */
const LATEST = 'f2cc7380b424ffc84df3293ef461a5af09be694b';
const BEFORE_FORMAT_CHANGE = '9e3334a504c708eaefb48b3d65bdf4bd60c937e7';
const FIRST_WEEK = '2355d43f4ef69fa7051f81ee9a1a17dd45fc7680';
const STALE_RULE =
  'a file is stale (its site left the published snapshot, and the job never deletes a file) when its blob is the one it had at ' +
  '9e3334a5, the last commit before the job stopped writing the `public` key; equivalently, the record still has a `public` key. ' +
  'Stale files are dropped.';
const FIRST_WEEK_RULE =
  'every file of the commit: the job had run only twice by then (2025-02-07 and 2025-02-10), and every record still had a `public` ' +
  'key, so a file it had stopped rewriting cannot be told apart; a few sites may already have left the published snapshot';

function brotli(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

interface Week {
  records: Map<string, SourceRecord>;
  files: number;
  dropped: number;
}

/** The records of one commit by path; with `staleBlobs`, less the files the stale rule finds. */
function weekRecords(commit: string, staleBlobs?: Map<string, string>): Week {
  const blobs = listBlobs(dir, commit);
  const paths = [...blobs.keys()].sort();
  const parsed = readBlobs(
    dir,
    paths.map((p) => blobs.get(p)!),
  );
  const records = new Map<string, SourceRecord>();
  let dropped = 0;
  paths.forEach((path, i) => {
    const record = parsed[i];
    if (staleBlobs) {
      const stale = staleBlobs.get(path) === blobs.get(path);
      // The two statements of the rule must agree on every file, or the rule no longer describes the data.
      if (stale !== 'public' in record) throw new Error(`${path}: blob rule and \`public\` key disagree`);
      if (stale) {
        dropped++;
        return;
      }
    }
    records.set(path, record);
  });
  return { records, files: paths.length, dropped };
}

async function main(): Promise<void> {
  await mkdir(out, { recursive: true });
  const latest = fullCommit(dir, LATEST);
  const latestDate = commitDate(dir, latest);
  const current = weekRecords(latest, listBlobs(dir, BEFORE_FORMAT_CHANGE));
  const snapshotFile = `site-scanning-${latestDate}.json.br`;
  const snapshotBytes = brotli(JSON.stringify([...current.records.values()]));
  await writeFile(join(out, snapshotFile), snapshotBytes);
  console.log(`${snapshotFile}: ${current.records.size} records (${current.dropped} stale of ${current.files} files dropped), ${snapshotBytes.length} bytes`);

  const firstDate = commitDate(dir, FIRST_WEEK);
  const first = weekRecords(FIRST_WEEK);
  const firstChanges = diffWeek(firstDate, current.records, first.records);
  const firstFile = `site-scanning-${firstDate}.changes.json.br`;
  const firstBytes = brotli(JSON.stringify(firstChanges));
  await writeFile(join(out, firstFile), firstBytes);
  console.log(
    `${firstFile}: ${first.records.size} records; ${firstChanges.changed.length} differ from ${latestDate}, ` +
      `${firstChanges.added.length} only in ${firstDate}, ${firstChanges.absent.length} absent; ${firstBytes.length} bytes`,
  );

  if (values.history) await writeHistory(values.history, latest, current);

  // Entries of other files (the price list) are kept as they are.
  const previous = JSON.parse(await readFile(join(out, 'sources.json'), 'utf8').catch(() => '{}')) as Record<string, unknown>;
  const sources = {
    ...previous,
    [snapshotFile]: {
      what: 'Site Scanning: the published weekly snapshot of every federal website scanned (weekly-snapshot-all.json), one record per site',
      repository: SOURCE_REPOSITORY,
      commit: latest,
      date: latestDate,
      rule: STALE_RULE,
      files: current.files,
      dropped: current.dropped,
      count: current.records.size,
      sha256: sha256(snapshotBytes),
      bytes: snapshotBytes.length,
      licence: SOURCE_LICENCE,
      note: 'scan_date is absent: the copying job deleted it (with cumulative_layout_shift and largest_contentful_paint) from 2025-02-18 on',
    },
    [firstFile]: {
      what: `The first weekly snapshot, as the fields that differ from ${latestDate}, the sites only it had and the sites it did not have`,
      repository: SOURCE_REPOSITORY,
      commit: FIRST_WEEK,
      date: firstDate,
      rule: FIRST_WEEK_RULE,
      files: first.files,
      dropped: 0,
      count: first.records.size,
      sha256: sha256(firstBytes),
      bytes: firstBytes.length,
      licence: SOURCE_LICENCE,
    },
  };
  await writeFile(join(out, 'sources.json'), JSON.stringify(sources, null, 2) + '\n');
}

/**
 * Every weekly commit as changes against the week after it, less each week's stale files (history.ts: in the
 * newest week its rule drops exactly the files STALE_RULE drops).
 */
async function writeHistory(historyDir: string, latest: string, current: Week): Promise<void> {
  await mkdir(historyDir, { recursive: true });
  const weeks = historyWeeks(dir).filter((w) => w.commit !== latest);
  let newer = current.records;
  const changes: WeekChanges[] = [];
  const report: { date: string; commit: string; files: number; kept: number; dropped: number }[] = [];
  for (const week of [...weeks].reverse()) {
    const records = historyWeekRecords(dir, week);
    changes.push(diffWeek(week.date, newer, records));
    report.push({ date: week.date, commit: week.commit, files: week.files, kept: records.size, dropped: week.stale.size });
    console.log(`week ${week.date}: ${records.size} kept, ${week.stale.size} stale dropped of ${week.files} files`);
    newer = records;
  }
  const bytes = brotli(JSON.stringify({ weeks: changes }));
  await writeFile(join(historyDir, 'site-scanning-weeks.json.br'), bytes);
  await writeFile(join(historyDir, 'site-scanning-weeks.report.json'), JSON.stringify(report, null, 2) + '\n');
  console.log(`site-scanning-weeks.json.br: ${changes.length} weeks as changes, ${bytes.length} bytes`);
}

await main();
