/**
 * The measures defined once (engine/site-scanning/measures.ts): their SQL form over the stored columns and their
 * form on a record agree on every record of the real newest and first weeks (the shared fixture's imports), unknown
 * included; and a site is up only when live in a scan that completed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'sql.js';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { isUp, MEASURE_SQL, MEASURES, siteFacts } from '../../../engine/site-scanning/measures.ts';
import { recordFromStored } from '../../../engine/site-scanning/stored-record.ts';
import { realWeek } from '../../../harness/real-fixtures.ts';

const WEEKS = ['2025-02-10', '2025-06-09'] as const;
const weeks = new Map<string, Database>();
// The real weeks may still be being built by the suite's setup (harness/real-fixtures.ts): a hook waits for them.
beforeAll(async () => {
  const SQL = await loadSqlJs();
  for (const date of WEEKS) weeks.set(date, (await realWeek(SQL, date)).db);
}, 600_000);
afterAll(() => weeks.forEach((db) => db.close()));

describe('the measures', () => {
  it('count the same in SQL and on a record, every real record', () => {
    for (const date of WEEKS) {
      const db = weeks.get(date)!;
      const rows = db.exec(`SELECT record, scan_status, ${MEASURES.map((m) => MEASURE_SQL[m]).join(', ')} FROM websites`)[0].values;
      const flag = (v: unknown): boolean | null => (v === null ? null : Number(v) !== 0);
      let unknown = 0;
      for (const [stored, status, ...measured] of rows) {
        const facts = siteFacts(recordFromStored(String(stored)));
        expect(facts.status).toBe(status);
        MEASURES.forEach((m, i) => expect(facts[m], m).toBe(flag(measured[i])));
        if (MEASURES.some((m) => facts[m] === null)) unknown++;
      }
      // Some records leave a measure unreported: the two forms agree on those too.
      expect(unknown, date).toBeGreaterThan(0);
    }
  });

  it('call a site up only when it is live in a scan that completed', () => {
    expect(isUp({ status: 'completed', live: true })).toBe(true);
    expect(isUp({ status: 'timeout', live: true })).toBe(false);
    expect(isUp({ status: 'completed', live: false })).toBe(false);
    expect(isUp({ status: 'completed', live: null })).toBe(false);
  });
});
