/**
 * Writes data/site-scanning-weeks/ (weeks-file.ts) from a fetched copy of the weekly snapshot
 * repository, every week less its stale files (history.ts STALE_RULE, the rule `load:history` uses):
 *   tsx tools/site-scanning-source/extract-weeks.ts --repo <bare git dir> [--out data] [--quality 9]
 * The newest week must equal the shipped newest snapshot (data/site-scanning-<date>.json.br), which the chain
 * starts from; its entry in data/sources.json is written too. `--quality` is Brotli's (default 9).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { SOURCE_LICENCE, SOURCE_REPOSITORY } from './git-snapshot.ts';
import { historyWeeks, STALE_RULE, weekRecords } from './history.ts';
import { diffWeek, type SourceRecord } from '../../engine/site-scanning/week-changes.ts';
import { WEEKS_DIR, WEEKS_INDEX, weekFile, type ShippedWeek, type ShippedWeeks } from './weeks-file.ts';

const { values } = parseArgs({ options: { repo: { type: 'string' }, out: { type: 'string', default: 'data' }, quality: { type: 'string', default: '9' } } });
if (!values.repo) throw new Error('usage: tsx tools/site-scanning-source/extract-weeks.ts --repo <bare git dir of the snapshot repository> [--out data]');
const dir = values.repo;
const out = values.out!;
/** Brotli quality: 9 is several times faster than 11 on these high-entropy changes (counters, hashes) for a few % more bytes. */
const quality = Number(values.quality);

const started = performance.now();
const weeks = historyWeeks(dir);
const newest = weeks[weeks.length - 1];
let newer = weekRecords(dir, newest);
const shippedNewest = JSON.parse(brotliDecompressSync(await readFile(join(out, `site-scanning-${newest.date}.json.br`))).toString('utf8')) as SourceRecord[];
if (JSON.stringify(shippedNewest) !== JSON.stringify([...newer.values()])) {
  throw new Error(`the newest week (${newest.date}) read from ${dir} differs from ${out}/site-scanning-${newest.date}.json.br`);
}
const shipped: ShippedWeek[] = [{ date: newest.date, commit: newest.commit, files: newest.files, dropped: newest.stale.size, count: newer.size }];
await mkdir(join(out, WEEKS_DIR), { recursive: true });
for (const week of weeks.slice(0, -1).reverse()) {
  const records = weekRecords(dir, week);
  const change = diffWeek(week.date, newer, records);
  const text = Buffer.from(JSON.stringify(change), 'utf8');
  const bytes = brotliCompressSync(text, {
    params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: text.length },
  });
  await writeFile(join(out, weekFile(week.date)), bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  shipped.unshift({ date: week.date, commit: week.commit, files: week.files, dropped: week.stale.size, count: records.size, bytes: bytes.length, sha256 });
  console.log(
    `${week.date} @ ${week.commit.slice(0, 8)}: ${records.size} kept, ${week.stale.size} stale of ${week.files}; ` +
      `${change.changed.length} differ from the week after, ${change.added.length} only here, ${change.absent.length} absent; ` +
      `${text.length} bytes of JSON, ${bytes.length} Brotli (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
  newer = records;
}
const file: ShippedWeeks = { weeks: shipped };
await writeFile(join(out, WEEKS_INDEX), JSON.stringify(file, null, 2) + '\n');
const total = shipped.reduce((n, w) => n + (w.bytes ?? 0), 0);
console.log(`${WEEKS_DIR}: ${shipped.length} weeks, ${shipped.length - 1} files of changes, ${total} bytes`);

const sources = JSON.parse(await readFile(join(out, 'sources.json'), 'utf8')) as Record<string, unknown>;
sources[WEEKS_DIR] = {
  what: `Site Scanning: every weekly snapshot from ${shipped[0].date} to ${newest.date} (${shipped.length} weeks), each older week as the fields that differ from the week after it, the sites only it had and the sites it did not have (one file per week, listed in weeks.json); the newest is site-scanning-${newest.date}.json.br`,
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
