/**
 * The built-in weeks dataset (engine/site-scanning/weeks.ts): data/'s chain (real-data.ts everyWeek) stored as
 * shipped, and each week mapped once by the import core's own mapping: the newest into its `websites` table, every
 * week to count its trends and its sites' core fields. Build time only.
 */
import type { Database, SqlJsStatic } from 'sql.js';
import type { DatasetSource } from '../../dataset/artifact/format.ts';
import { mappedWeek, websitesDatabase } from '../../dataset/websites/week-source.ts';
import { sortKeyPaths, WeeksWriter } from '../../engine/site-scanning/weeks.ts';
import { everyWeek, shippedWeeks } from '../real-data.ts';
import { SOURCE_REPOSITORY } from './git-snapshot.ts';

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
    for (const { week, records, chain } of everyWeek()) {
      const started = performance.now();
      const paths = [...records.keys()];
      if (writer && only && !only.includes(week.date)) {
        writer.link(week.date, chain);
        continue;
      }
      const mapped = mappedWeek(week.date, records.values());
      if (!writer) {
        // The newest week's table is what the import of its file makes (weeks-real.test.ts), from the same mapping.
        db = websitesDatabase(SQL, mapped);
        writer = new WeeksWriter(db, sortKeyPaths(db, paths));
      }
      writer.add(week.date, mapped, paths, chain);
      say(`the week of ${week.date}: ${records.size.toLocaleString('en-US')} records in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } catch (error) {
    db?.close();
    throw error;
  }
  if (!db) throw new Error('no weeks shipped');
  return { db, source: weeksSource() };
}
