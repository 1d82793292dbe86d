/**
 * The built-in weeks dataset (engine/site-scanning/weeks.ts): data/'s chain (real-data.ts everyWeek) stored as
 * shipped, every CHECKPOINT_EVERY-th older week's records whole (Brotli), and each week mapped once by the import
 * core's own mapping: the newest into its `websites` table, every week to count its trends and its sites' core
 * fields. Build time only.
 */
import { brotliCompressSync, constants } from 'node:zlib';
import type { Database, SqlJsStatic } from 'sql.js';
import type { DatasetSource } from '../../dataset/artifact/format.ts';
import { mappedWeek, websitesDatabase } from '../../dataset/websites/week-source.ts';
import type { SourceRecord } from '../../engine/site-scanning/week-changes.ts';
import { sortKeyPaths, WeeksWriter, type ChainFile } from '../../engine/site-scanning/weeks.ts';
import { everyWeek, shippedWeeks } from '../real-data.ts';
import { SOURCE_REPOSITORY } from './git-snapshot.ts';

/**
 * Every this many weeks back from the newest, a week is kept whole: a rebuild then decodes one whole week and at most
 * CHECKPOINT_EVERY - 1 chain files (docs/decisions/1100: sizes and times per choice).
 */
export const CHECKPOINT_EVERY = 4;

/**
 * A week's records as one Brotli JSON array. Quality 5 with a 16 MB window: 5.8 MB for the newest's 119 MB in 1.5 s;
 * quality 9 saves 1 MB a week for 4 s more, 11 (data/'s) 0.8 MB more for 100 s.
 */
function wholeWeek(records: ReadonlyMap<string, SourceRecord>): ChainFile {
  const raw = new TextEncoder().encode(JSON.stringify([...records.values()]));
  const bytes = brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), rawBytes: raw.length };
}

export function weeksSource(): DatasetSource {
  const { weeks } = shippedWeeks();
  const newest = weeks[weeks.length - 1];
  return {
    kind: 'real',
    label:
      `Real: every published weekly Site Scanning snapshot, ${weeks.length} weeks from ${weeks[0].date} to ${newest.date}, ` +
      `${newest.count.toLocaleString('en-US')} sites in the newest (${SOURCE_REPOSITORY} @ ${newest.commit.slice(0, 8)}, data CC0)`,
    repository: SOURCE_REPOSITORY,
    commit: newest.commit,
    date: newest.date,
    from: weeks[0].date,
    licence: 'CC0-1.0',
    count: newest.count,
  };
}

/**
 * Every shipped week (or the newest and the `only` dates: a test's smaller copy, which still holds the whole chain
 * to decode them) as one weeks database.
 */
export async function weeksDatabase(
  SQL: SqlJsStatic,
  { say = () => {}, only }: { say?: (line: string) => void; only?: readonly string[] } = {},
): Promise<{ db: Database; source: DatasetSource }> {
  let db: Database | null = null;
  let writer: WeeksWriter | null = null;
  try {
    let back = 0;
    for (const { week, records, chain } of everyWeek()) {
      const started = performance.now();
      const paths = [...records.keys()];
      const checkpoint = back > 0 && back % CHECKPOINT_EVERY === 0;
      back++;
      if (writer && only && !only.includes(week.date)) {
        writer.link(week.date, chain);
        if (checkpoint) writer.checkpoint(week.date, wholeWeek(records));
        continue;
      }
      const mapped = mappedWeek(week.date, records.values());
      if (!writer) {
        // The newest week's table is what the import of its file makes (weeks-real.test.ts), from the same mapping.
        db = websitesDatabase(SQL, mapped);
        writer = new WeeksWriter(db, sortKeyPaths(db, paths));
      }
      writer.add(week.date, mapped, paths, chain);
      if (checkpoint) writer.checkpoint(week.date, wholeWeek(records));
      say(`the week of ${week.date}: ${records.size.toLocaleString('en-US')} records in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } catch (error) {
    db?.close();
    throw error;
  }
  if (!db) throw new Error('no weeks shipped');
  return { db, source: weeksSource() };
}
