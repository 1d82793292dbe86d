/**
 * The websites dataset's weeks attachment (engine/site-scanning/weeks-schema.ts), built from every week data/
 * ships (shipped-weeks.ts), each mapped once by the import core's own mapping, as the import of its file maps it.
 * Build time only.
 */
import { brotliCompressSync, constants } from 'node:zlib';
import type { Database, SqlJsStatic } from 'sql.js';
import type { DatasetSource } from '../../dataset/artifact/format.ts';
import { mapJsonRecords } from '../../dataset/import/import.ts';
import type { WebsiteRecord } from '../../engine/site-scanning/record.ts';
import { WeeksWriter, type BrotliEncode } from '../../engine/site-scanning/weeks-writer.ts';
import { everyWeek, shippedWeeks } from './shipped-weeks.ts';
import { SOURCE_REPOSITORY } from './git-snapshot.ts';

/**
 * The blocks and the item list, each a Brotli stream. Quality 9, window 4 MB: the blocks are 29.4 MB at 9, 30.2 MB
 * at 5 (decision 1100); a block decodes in 0.5 ms at either.
 */
const brotli: BrotliEncode = (raw) => {
  const bytes = brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_LGWIN]: 22, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};

/** A week's records as the import of its file maps them (scan_date: the week's day); every record must be imported. */
export function mappedWeek(date: string, records: Iterable<unknown>): WebsiteRecord[] {
  const { records: mapped, report } = mapJsonRecords('websites', records, { snapshotDate: date });
  if (report.rowsRejected !== 0) throw new Error(`the week of ${date}: ${report.rowsRejected} records refused by the import`);
  return mapped;
}

export function weeksSource(): DatasetSource {
  const { weeks } = shippedWeeks();
  const newest = weeks[weeks.length - 1];
  return {
    kind: 'real',
    label:
      `Real: every published weekly Site Scanning list, ${weeks.length} weeks from ${weeks[0].date} to ${newest.date}, ` +
      `${newest.count.toLocaleString('en-US')} sites in the newest (${SOURCE_REPOSITORY} @ ${newest.commit.slice(0, 8)}, data CC0)`,
    repository: SOURCE_REPOSITORY,
    commit: newest.commit,
    date: newest.date,
    from: weeks[0].date,
    licence: 'CC0-1.0',
    count: newest.count,
  };
}

/** Every shipped week as the weeks attachment's database. */
export function weeksDatabase(SQL: SqlJsStatic, { say = () => {} }: { say?: (line: string) => void } = {}): { db: Database; source: DatasetSource } {
  const db = new SQL.Database();
  try {
    const writer = new WeeksWriter(
      db,
      shippedWeeks().weeks.map(({ date, partial }) => ({ date, partial: partial ?? null })),
      brotli,
    );
    for (const { week, records } of everyWeek()) {
      const started = performance.now();
      writer.add(week.date, mappedWeek(week.date, records.values()), [...records.keys()]);
      say(`the week of ${week.date}: ${records.size.toLocaleString('en-US')} records in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const started = performance.now();
    writer.finish();
    say(`the weeks' tables written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { db, source: weeksSource() };
  } catch (error) {
    db.close();
    throw error;
  }
}
