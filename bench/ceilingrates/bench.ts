/**
 * Ceiling-rates benchmark: the engine, the straightforward SQL baseline and the typed-array floor over the
 * same database and the same request mix, side by side in one process.
 */
import os from 'node:os';
import type { Database } from 'sql.js';
import { loadSqlJs } from '../../adapters/node/datasets/sqljs-node.ts';
import { buildDatabase } from '../../tools/generated-datasets.ts';
import { ceilingRatesDataset } from '../../tools/generate/ceilingrates.ts';
import { createEngine } from '../../engine/index.ts';
import { CeilingRatesIndex, ceilingRatesIndex } from '../../engine/ceilingrates/ceiling-rates-index.ts';
import { prepareColumns } from '../../engine/ceilingrates/columns/prepared.ts';
import { matchedRows } from '../../engine/ceilingrates/query/match-set.ts';
import { parseQuery } from '../../engine/ceilingrates/parse-query.ts';
import { fold } from '../../engine/ceilingrates/text.ts';
import { workload, type BenchRequest, type Kind } from './workload.ts';
import { baselineAnswer, registerBaselineFunctions } from './baseline.ts';
import { floorInput, floorPass, type FloorInput } from './floor.ts';
import { Samples, type Summary } from './latency.ts';
import { DuckDbPeer } from './duckdb.ts';
import { differences, engineAnswer, summarizeDifferences } from './compare.ts';

export interface BenchOptions {
  records: number;
  rounds: number;
  baselineRounds: number;
  /** Threads DuckDB may use (the engine answers on one). */
  duckdbThreads: number;
  /** A built database to measure instead of `records` generated ones (the default build's real rates). */
  database?: { db: Database; data: string };
}

export interface KindResult {
  requests: number;
  engine: Summary;
  baseline: Summary;
  floor: Summary;
  duckdb: Summary;
}

export interface BenchResult {
  /** What the records are: generated (with their seed) or the real source. */
  data: string;
  records: number;
  requests: number;
  rounds: { engine: number; baseline: number; floor: number; duckdb: number };
  duckdb_threads: number;
  duckdb_load_ms: number;
  database_bytes: number;
  bind_ms: number;
  engine_memory_bytes: number;
  engine: Summary;
  baseline: Summary;
  floor: Summary;
  duckdb: Summary;
  ratios: {
    baseline_over_engine_p50: number;
    baseline_over_engine_p95: number;
    engine_over_floor_p50: number;
    duckdb_over_engine_p50: number;
    duckdb_over_engine_p95: number;
  };
  kinds: Record<string, KindResult>;
  mismatches: string[];
  /** Where DuckDB's answer differs from the engine's (total, page, aggregations), per request. */
  duckdb_differences: { url: string; difference: string }[];
  /** 1-minute load average before and after: the machine is shared, and wall times follow the load. */
  load_average: { before: number; after: number };
}

/**
 * Bytes the engine's index retains: every typed array's buffer once, strings at two bytes a character,
 * plus a word per array slot and object field. The database itself (sql.js's wasm heap) is not counted.
 */
function retainedBytes(root: unknown, skip: unknown): number {
  const seen = new Set<unknown>();
  let bytes = 0;
  const visit = (value: unknown): void => {
    if (value === null || value === skip) return;
    if (typeof value === 'string') {
      bytes += 2 * value.length;
      return;
    }
    if (typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (ArrayBuffer.isView(value)) {
      if (!seen.has(value.buffer)) {
        seen.add(value.buffer);
        bytes += value.buffer.byteLength;
      }
      return;
    }
    if (value instanceof Map) {
      bytes += 16 * value.size;
      for (const [k, v] of value) {
        visit(k);
        visit(v);
      }
      return;
    }
    if (value instanceof Set) {
      bytes += 8 * value.size;
      for (const v of value) visit(v);
      return;
    }
    const fields = Object.values(value as object);
    bytes += 8 * fields.length;
    for (const v of fields) visit(v);
  };
  visit(root);
  return bytes;
}

function databaseBytes(db: Database): number {
  const pages = db.exec('PRAGMA page_count')[0].values[0][0] as number;
  const size = db.exec('PRAGMA page_size')[0].values[0][0] as number;
  return pages * size;
}

function known(db: Database): { vendor: string; piid: string } {
  const statement = db.prepare('SELECT vendor_name, idv_piid FROM ceilingrates WHERE id = ?');
  try {
    statement.bind([Math.min(1000, Number(db.exec('SELECT MAX(id) FROM ceilingrates')[0].values[0][0]))]);
    statement.step();
    const [vendor, piid] = statement.get() as string[];
    return { vendor, piid };
  } finally {
    statement.free();
  }
}

/** The floor's untimed preparation: the matching records' fields laid out contiguously. */
function prepareFloor(index: CeilingRatesIndex, request: BenchRequest): FloorInput {
  const query = parseQuery(new URL(request.url, 'http://localhost').searchParams);
  return floorInput(index, matchedRows(index.match(query, query.suggestContains)));
}

const totalOf = (body: string): number | undefined => {
  const parsed = JSON.parse(body) as { hits?: { total: number | { value: number } } };
  const t = parsed.hits?.total;
  return typeof t === 'number' ? Math.min(t, 10_000) : t?.value;
};

export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<BenchResult> {
  const loadBefore = os.loadavg()[0];
  const SQL = await loadSqlJs();
  let t = performance.now();
  const db = options.database?.db ?? buildDatabase(SQL, ceilingRatesDataset, options.records);
  if (!options.database) log(`generated ${options.records} records in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const records = Number(db.exec('SELECT COUNT(*) FROM ceilingrates')[0].values[0][0]);
  const data = options.database?.data ?? `synthetic (generated, seed ${ceilingRatesDataset.seed})`;
  log(`${records} records: ${data}`);
  const dbBytes = databaseBytes(db);

  const engine = createEngine();
  engine.use('ceilingrates', db);
  const requests = workload(known(db));
  t = performance.now();
  const first = engine.handle({ method: 'GET', url: requests[0].url });
  const bindMs = performance.now() - t;
  if (first.status !== 200) throw new Error(`engine answered ${first.status}: ${first.body}`);
  // Warm-up: every request once (builds the lazy per-field orders, as a real session would).
  for (const r of requests) engine.handle({ method: 'GET', url: r.url });
  log(`bound in ${bindMs.toFixed(0)} ms`);

  const engineSamples = new Samples();
  const engineTotals = new Map<string, number | undefined>();
  const engineBodies = new Map<string, string>();
  // Every timed request is a new search: the searches the index caches (query/search-cache.ts) are emptied
  // first, so the figures are the computation's, comparable with the baseline's and DuckDB's.
  const searches = ceilingRatesIndex(db).searches;
  for (let round = 0; round < options.rounds; round++) {
    for (const r of requests) {
      searches.clear();
      const started = performance.now();
      const response = engine.handle({ method: 'GET', url: r.url });
      engineSamples.add(r.kind, performance.now() - started);
      if (response.status !== 200) throw new Error(`engine answered ${response.status} to ${r.url}: ${response.body}`);
      if (round === 0) {
        engineTotals.set(r.url, totalOf(response.body));
        engineBodies.set(r.url, response.body);
      }
    }
  }
  log(`engine: ${options.rounds} rounds done`);

  // A second index over the same database, warmed by the same requests, to measure what the engine retains.
  const index = new CeilingRatesIndex(db, prepareColumns(db));
  for (const r of requests) {
    const url = new URL(r.url, 'http://localhost');
    index.search({ search: url.search, query: url.searchParams } as unknown as Parameters<CeilingRatesIndex['search']>[0]);
  }
  const engineMemory = retainedBytes(index, db);
  log(`engine index retains ${(engineMemory / 1e6).toFixed(1)} MB for a ${(dbBytes / 1e6).toFixed(1)} MB database`);
  const inputs = requests.map((r) => prepareFloor(index, r));
  const floorSamples = new Samples();
  let sink = 0;
  for (let round = 0; round < options.rounds; round++) {
    requests.forEach((r, i) => {
      const started = performance.now();
      if (r.kind === 'suggest') {
        // No aggregation: the least work is one scan of the field's distinct values.
        const query = parseQuery(new URL(r.url, 'http://localhost').searchParams);
        for (const s of query.suggest) {
          const prefix = fold(s.text.trim());
          for (const v of index.ratesTables.forms.folded.get(s.field)) if (v.startsWith(prefix)) sink++;
        }
      } else {
        sink += floorPass(inputs[i]);
      }
      floorSamples.add(r.kind, performance.now() - started);
    });
  }
  log(`floor: ${options.rounds} rounds done (${sink > 0 ? 'checksum ok' : 'empty'})`);

  t = performance.now();
  const duck = await DuckDbPeer.load(db, options.duckdbThreads);
  const duckLoadMs = performance.now() - t;
  log(`duckdb: loaded in ${duckLoadMs.toFixed(0)} ms (${options.duckdbThreads} thread${options.duckdbThreads === 1 ? '' : 's'})`);
  const duckdbDifferences: { url: string; difference: string }[] = [];
  for (const r of requests) {
    for (const difference of differences(engineAnswer(engineBodies.get(r.url)!), await duck.answer(r.url))) duckdbDifferences.push({ url: r.url, difference });
  }
  const duckSamples = new Samples();
  for (let round = 0; round < options.rounds; round++) {
    for (const r of requests) {
      const started = performance.now();
      await duck.answer(r.url);
      duckSamples.add(r.kind, performance.now() - started);
    }
  }
  log(`duckdb: ${options.rounds} rounds done`);

  registerBaselineFunctions(db);
  const baselineSamples = new Samples();
  const mismatches: string[] = [];
  for (let round = 0; round < options.baselineRounds; round++) {
    for (const r of requests) {
      const started = performance.now();
      const body = baselineAnswer(db, r.url);
      baselineSamples.add(r.kind, performance.now() - started);
      if (round === 0 && totalOf(body) !== engineTotals.get(r.url)) {
        mismatches.push(`${r.url}: engine total ${engineTotals.get(r.url)}, baseline ${totalOf(body)}`);
      }
    }
    log(`baseline: round ${round + 1}/${options.baselineRounds} done`);
  }

  const kinds: Record<string, KindResult> = {};
  for (const kind of new Set<Kind>(requests.map((r) => r.kind))) {
    kinds[kind] = {
      requests: requests.filter((r) => r.kind === kind).length,
      engine: engineSamples.kind(kind),
      baseline: baselineSamples.kind(kind),
      floor: floorSamples.kind(kind),
      duckdb: duckSamples.kind(kind),
    };
  }
  const e = engineSamples.overall();
  const b = baselineSamples.overall();
  const f = floorSamples.overall();
  const d = duckSamples.overall();
  const ratio = (x: number, y: number): number => Math.round((x / y) * 10) / 10;
  return {
    data,
    records,
    requests: requests.length,
    rounds: { engine: options.rounds, baseline: options.baselineRounds, floor: options.rounds, duckdb: options.rounds },
    duckdb_threads: options.duckdbThreads,
    duckdb_load_ms: Math.round(duckLoadMs),
    database_bytes: dbBytes,
    bind_ms: Math.round(bindMs),
    engine_memory_bytes: engineMemory,
    engine: e,
    baseline: b,
    floor: f,
    duckdb: d,
    ratios: {
      baseline_over_engine_p50: ratio(b.p50_ms, e.p50_ms),
      baseline_over_engine_p95: ratio(b.p95_ms, e.p95_ms),
      engine_over_floor_p50: ratio(e.p50_ms, f.p50_ms),
      duckdb_over_engine_p50: ratio(d.p50_ms, e.p50_ms),
      duckdb_over_engine_p95: ratio(d.p95_ms, e.p95_ms),
    },
    kinds,
    mismatches,
    duckdb_differences: duckdbDifferences,
    load_average: { before: Math.round(loadBefore * 100) / 100, after: Math.round(os.loadavg()[0] * 100) / 100 },
  };
}

export function table(result: BenchResult): string {
  // A peer not run (--baseline-rounds 0 at millions of records): NaN, or null once read back from JSON.
  const missing = (v: number | null): boolean => v === null || Number.isNaN(v);
  const fmt = (v: number): string => (missing(v) ? '-' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)).padStart(8);
  const head = `${'kind'.padEnd(18)}${'n'.padStart(4)} | ${'engine p50'.padStart(10)} ${'p95'.padStart(8)} | ${'duckdb p50'.padStart(10)} ${'p95'.padStart(8)} | ${'baseline p50'.padStart(12)} ${'p95'.padStart(8)} | ${'floor p50'.padStart(9)} ${'p95'.padStart(8)} | ${'duck/eng'.padStart(8)} ${'base/eng'.padStart(8)} ${'eng/floor'.padStart(9)}`;
  const line = (name: string, n: number, k: Omit<KindResult, 'requests'>): string =>
    `${name.padEnd(18)}${String(n).padStart(4)} | ${fmt(k.engine.p50_ms).padStart(10)} ${fmt(k.engine.p95_ms)} | ${fmt(k.duckdb.p50_ms).padStart(10)} ${fmt(k.duckdb.p95_ms)} | ${fmt(k.baseline.p50_ms).padStart(12)} ${fmt(k.baseline.p95_ms)} | ${fmt(k.floor.p50_ms).padStart(9)} ${fmt(k.floor.p95_ms)} | ${(k.duckdb.p50_ms / k.engine.p50_ms).toFixed(1).padStart(7)}x ${(missing(k.baseline.p50_ms) ? '-' : `${(k.baseline.p50_ms / k.engine.p50_ms).toFixed(0)}x`).padStart(8)} ${(k.engine.p50_ms / k.floor.p50_ms).toFixed(1).padStart(8)}x`;
  const rows = Object.entries(result.kinds).map(([k, v]) => line(k, v.requests, v));
  return [
    `ceilingrates: ${result.records} records (${result.data}), ${result.requests} requests (engine, duckdb and floor ${result.rounds.engine} rounds, baseline ${result.rounds.baseline}); times in ms`,
    head,
    '-'.repeat(head.length),
    ...rows,
    '-'.repeat(head.length),
    line('overall', result.requests, result),
    `machine load average ${result.load_average.before} before, ${result.load_average.after} after (2 cores, shared)`,
    `database ${(result.database_bytes / 1e6).toFixed(1)} MB, engine memory ${(result.engine_memory_bytes / 1e6).toFixed(1)} MB (${(result.engine_memory_bytes / result.database_bytes).toFixed(2)}x), bind ${result.bind_ms} ms; duckdb ${result.duckdb_threads} thread(s), load ${result.duckdb_load_ms} ms`,
    ...(result.mismatches.length
      ? ['MISMATCHES between engine and baseline totals:', ...result.mismatches]
      : [result.rounds.baseline > 0 ? 'engine and baseline agree on every hits.total' : 'baseline not run']),
    ...(result.duckdb_differences.length
      ? [
          `DIFFERENCES between engine and duckdb answers (${result.duckdb_differences.length}; all in bench/results.json), by what differs:`,
          ...summarizeDifferences(result.duckdb_differences).map((d) => `  ${d}`),
        ]
      : ['engine and duckdb agree on every total, page, aggregation and suggestion']),
  ].join('\n');
}

/** The engine over two datasets side by side, per request kind: p50/p95 in ms, then size, memory and bind. */
export function sideBySide(columns: { title: string; result: BenchResult }[]): string {
  const cell = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)).padStart(8);
  const width = 19;
  const head = `${'engine, ms'.padEnd(18)}${'n'.padStart(4)} | ${columns.map((c) => c.title.slice(0, width).padStart(width)).join(' | ')}`;
  const sub = `${''.padEnd(22)} | ${columns.map(() => `${'p50'.padStart(8)}  ${'p95'.padStart(9)}`).join(' | ')}`;
  const row = (name: string, n: number, pick: (r: BenchResult) => Summary): string =>
    `${name.padEnd(18)}${String(n).padStart(4)} | ${columns.map((c) => `${cell(pick(c.result).p50_ms)}  ${cell(pick(c.result).p95_ms).padStart(9)}`).join(' | ')}`;
  const first = columns[0].result;
  const figure = (name: string, value: (r: BenchResult) => string): string =>
    `${name.padEnd(22)} | ${columns.map((c) => value(c.result).padStart(width)).join(' | ')}`;
  return [
    head,
    sub,
    '-'.repeat(head.length),
    ...Object.entries(first.kinds).map(([kind, k]) => row(kind, k.requests, (r) => r.kinds[kind]?.engine ?? { samples: 0, p50_ms: NaN, p95_ms: NaN })),
    '-'.repeat(head.length),
    row('overall', first.requests, (r) => r.engine),
    figure('records', (r) => r.records.toLocaleString('en-US')),
    figure('database MB', (r) => (r.database_bytes / 1e6).toFixed(1)),
    figure('engine memory MB', (r) => (r.engine_memory_bytes / 1e6).toFixed(1)),
    figure('bind ms', (r) => String(r.bind_ms)),
    figure('duckdb/engine p50', (r) => `${r.ratios.duckdb_over_engine_p50}x`),
    figure('baseline/engine p50', (r) => `${r.ratios.baseline_over_engine_p50}x`),
  ].join('\n');
}
