import type { Database } from 'sql.js';
import { clusterWebsites } from '../engine/site-scanning/schema.ts';

/**
 * Page size of a shipped file: 64 KiB (fewer page headers and overflow chains, so the file gzips smaller), but
 * 16 KiB for websites, because a filtered page reads 100 rows scattered over the clustered table, and each row read
 * copies its page: at 64 KiB the read took 6.8 ms (p50), at 16 KiB 3.8 ms, and the file gzips no larger (decision 0105).
 * An attachment's (the weeks': their blocks of records, 13 KB each) is 64 KiB too.
 */
const pageSize = (name: string): number => (name === 'websites' ? 16_384 : 65_536);

/** A finished database as the build ships it (`name`: a dataset's, or an attachment's id): websites rows clustered, its page size, compacted. */
export function toShippedForm(db: Database, name: string): void {
  if (name === 'websites') clusterWebsites(db);
  db.run(`PRAGMA page_size = ${pageSize(name)}`);
  db.run('VACUUM');
}
