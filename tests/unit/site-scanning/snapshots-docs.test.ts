/**
 * docs/api/snapshots.md shows what the default data answers: the weeks its list example names are the shipped weeks
 * with their counts (the figures a reader compares against), and its 404 for a week not held is the engine's, word
 * for word. The dated answers themselves are checked week against import in weeks-real.test.ts.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { createEngine, type Engine } from '../../../engine/index.ts';
import { NEWEST_WEEK, shippedWeeks } from '../../../tools/site-scanning-source/shipped-weeks.ts';
import { realWeek } from '../../../harness/real-fixtures.ts';

const PAGE = readFileSync(new URL('../../../docs/api/snapshots.md', import.meta.url), 'utf8');

let engine: Engine;
beforeAll(async () => {
  const SQL = await loadSqlJs();
  engine = createEngine();
  engine.use('websites', (await realWeek(SQL, NEWEST_WEEK)).db, null, NEWEST_WEEK);
}, 600_000);

describe('docs/api/snapshots.md', () => {
  it("lists in its example the shipped weeks' own dates and counts, oldest first and the newest last", () => {
    const shown = [...PAGE.matchAll(/\{"date":"(\d{4}-\d{2}-\d{2})","count":(\d+)\}/g)].map(([, date, count]) => ({ date, count: Number(count) }));
    const shipped = shippedWeeks().weeks.map(({ date, count }) => ({ date, count }));
    expect(shown.length).toBeGreaterThanOrEqual(2);
    for (const week of shown) expect(shipped).toContainEqual(week);
    expect(shown[0]).toEqual(shipped[0]);
    expect(shown.at(-1)).toEqual(shipped.at(-1));
    expect(shipped).toHaveLength(17);
  });

  it('shows the 404 a week not held gets, as the engine answers it', () => {
    const match = /not held is Express's 404 \(`(\{.*?\})`\)/.exec(PAGE);
    expect(match).not.toBeNull();
    const shown = JSON.parse(match![1]) as { message: string };
    const path = /^Cannot GET (\S+)$/.exec(shown.message)![1];
    const answer = engine.handle({ method: 'GET', url: path });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual(shown);
  });

  it('answers the gateway form under the prefix, as the page says', () => {
    const answer = engine.handle({ method: 'GET', url: `/snapshots/${NEWEST_WEEK}/technology/site-scanning/v1/analysis` });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).total).toBe(shippedWeeks().weeks.at(-1)!.count);
  });
});
