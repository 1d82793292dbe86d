/**
 * How long the ceiling-rates engine takes to bind to a database (build its in-memory index), phase by phase.
 *   npx tsx bench/ceilingrates/bind.ts [--records 250000] [--runs 5] [--db public/data/ceilingrates.sqlite.gz]
 * Without --db it generates the records (the default profile's seed), which is what `npm run bench` binds to.
 * The figure that counts is "bind + first request": what the first view waits for after the database opens.
 * The app binds once per worker, with nothing compiled yet: that is the first run, printed on its own (cold).
 */
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import type { Database } from 'sql.js';
import { loadSqlJs } from '../../adapters/node/datasets/sqljs-node.ts';
import { buildDatabase } from '../../tools/generated-datasets.ts';
import { ceilingRatesDataset } from '../../tools/generate/ceilingrates.ts';
import { createEngine } from '../../engine/index.ts';
import { loadColumns } from '../../engine/ceilingrates/columns/load.ts';
import { OrderColumns } from '../../engine/ceilingrates/columns/order-columns.ts';
import { buildCombos } from '../../engine/ceilingrates/columns/combos.ts';
import { countedRows } from '../../engine/ceilingrates/query/aggregator.ts';
import { ratesTables } from '../../engine/ceilingrates/rates-tables.ts';

const DEFAULT_REQUEST =
  '/api/v3/search/ceilingrates/?page=1&page_size=20&ordering=current_price&sort=asc&filter=experience_range:0,45&filter=price_range:15,500';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '250000' },
    runs: { type: 'string', default: '5' },
    db: { type: 'string' },
  },
});

const SQL = await loadSqlJs();
let db: Database;
if (values.db) {
  db = new SQL.Database(gunzipSync(readFileSync(values.db)));
} else {
  const t = performance.now();
  db = buildDatabase(SQL, ceilingRatesDataset, Number(values.records));
  console.log(`generated ${values.records} records in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
const records = Number(db.exec('SELECT COUNT(*) FROM ceilingrates')[0].values[0][0]);

const timed = <T>(into: Map<string, number[]>, name: string, work: () => T): T => {
  const t = performance.now();
  const result = work();
  const list = into.get(name) ?? [];
  list.push(performance.now() - t);
  into.set(name, list);
  return result;
};

const phases = new Map<string, number[]>();
for (let run = 0; run < Number(values.runs); run++) {
  // The whole thing as the app sees it: a fresh engine, the first request binds and answers.
  const engine = createEngine();
  engine.use('ceilingrates', db);
  const response = timed(phases, 'bind + first request', () => engine.handle({ method: 'GET', url: DEFAULT_REQUEST }));
  if (response.status !== 200) throw new Error(`engine answered ${response.status}: ${response.body}`);
  timed(phases, 'second request (page 2: the search is cached)', () => engine.handle({ method: 'GET', url: DEFAULT_REQUEST + '&page=2' }));

  // The same construction split into its parts (CeilingRatesIndex's constructor, step by step).
  const store = timed(phases, '  loadColumns', () => loadColumns(db));
  const orders = new OrderColumns(store);
  const combos = timed(phases, '  buildCombos', () => buildCombos(store));
  const price = timed(phases, '  order current_price', () => orders.get('current_price'));
  // The aggregator (every record counted once), the term buckets, the search fields folded.
  timed(phases, '  rates tables', () =>
    ratesTables({
      size: store.size,
      dicts: store,
      combos,
      priceOrder: price,
      prices: store.numbers.current_price,
      counted: (kernels) =>
        countedRows(kernels, {
          labor: store.text.labor_category.codes,
          combos,
          priceRanks: price.recordRank,
          distinct: price.nullRank,
          priceKeys: store.priceKeys.codes,
        }),
      folded: null,
      firstIds: () => [],
    }),
  );
  for (const field of ['min_years_experience', 'labor_category', 'vendor_name', 'idv_piid'] as const) {
    timed(phases, `  order ${field}`, () => orders.get(field));
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `${records} records, ${values.runs} runs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`${'bind + first request, cold'.padEnd(28)} first run ${phases.get('bind + first request')![0].toFixed(0).padStart(3)} ms`);
for (const [name, xs] of phases) {
  console.log(
    `${name.padEnd(28)} median ${median(xs).toFixed(0).padStart(6)} ms   min ${Math.min(...xs)
      .toFixed(0)
      .padStart(6)} ms`,
  );
}
