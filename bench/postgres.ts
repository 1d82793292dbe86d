/**
 * The Postgres column: the same requests answered by the in-memory engine and by the Postgres backend
 * (`serve --database`'s answer source, in process, over a throwaway PostgreSQL 15 on this machine), p50/p95
 * per request kind, with every answer compared (`took` aside). Also the `load` times and the Site Scanning
 * requests with every week loaded: with --real-weeks, the 17 real weeks data/ ships
 * (tools/site-scanning-source/postgres-weeks.ts, as load:history loads them); otherwise --weeks generated ones (the
 * same generator with a different count per week).
 *   npx tsx bench/run.ts --only postgres --records 250000 --real-weeks --rounds 10
 *   npx tsx bench/run.ts --only postgres --records 4000000 --weeks 1 --rounds 3
 * A measurement, not a test: nothing is asserted about times.
 */
import os from 'node:os';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { buildDatabase } from '../tools/generated-datasets.ts';
import { ceilingRatesDataset } from '../tools/generate/ceilingrates.ts';
import { websitesDataset } from '../tools/generate/websites.ts';
import { createEngine } from '../engine/index.ts';
import { createPool } from '../adapters/node/backends/postgres/pool.ts';
import { loadIntoPostgres } from '../adapters/node/backends/postgres/load.ts';
import { PostgresAnswers } from '../adapters/node/backends/postgres/answers.ts';
import { startPostgres } from '../harness/postgres.ts';
import { loadWeeks, type LoadedWeek } from '../tools/site-scanning-source/postgres-weeks.ts';
import { weekDatabase } from '../tools/site-scanning-source/shipped-weeks.ts';
import type { Database } from 'sql.js';
import { workload } from './ceilingrates/workload.ts';
import { Samples, type Summary } from './ceilingrates/latency.ts';

export interface PostgresBenchOptions {
  records: number;
  websites: number;
  /** Site Scanning snapshots to load (the newest answers the API paths). */
  weeks: number;
  rounds: number;
  /** Load the real weeks data/ ships instead of generated ones. */
  realWeeks?: boolean;
}

export interface PostgresBenchResult {
  records: number;
  websites: number;
  weeks: number;
  rounds: number;
  /** Real weeks (--real-weeks) or generated ones. */
  websites_source: 'real weeks' | 'generated';
  load_ms: { ceilingrates: number; websites_per_week: number };
  /** Each real week as loaded: files, selected, stale dropped. */
  history?: LoadedWeek[];
  kinds: Record<string, { engine: Summary; postgres: Summary }>;
  /** Requests whose answers differed (should be none). */
  differences: string[];
  load_average: { before: number; after: number };
}

const comparable = (body: string): string => body.replace(/^\{"took":\d+,/, '{"took":0,');

function websiteRequests(agencies: readonly string[], oldest: string): [string, string][] {
  const enc = encodeURIComponent;
  return [
    ['site-list', '/websites'],
    ['site-list', '/websites?limit=100&page=3'],
    ['site-filters', `/websites?target_url_agency_owner=${enc(agencies[0])}&final_url_live=true`],
    ['site-filters', '/websites?final_url_live=true&dap_detected_final_url=true&limit=100&page=5'],
    ['site-filters', `/websites?scan_status=completed&target_url_agency_owner=${enc(agencies[1] ?? agencies[0])}`],
    ['site-by-url', '/websites/18f.gov'],
    ['site-by-url', '/websites/https://www.gsa.gov/'],
    ['site-analysis', '/analysis'],
    ['site-analysis', '/analysis?final_url_live=true&scan_status=completed'],
    ['site-older-week', `/snapshots/${oldest}/websites?final_url_live=true&limit=50`],
    ['site-older-week', `/snapshots/${oldest}/analysis`],
  ];
}

/** Monday `weeks - 1 - i` weeks before 2025-06-02, as YYYY-MM-DD: the snapshots' dates, oldest first. */
function weekDate(i: number, weeks: number): string {
  const date = new Date(Date.UTC(2025, 5, 2) - (weeks - 1 - i) * 7 * 86_400_000);
  return date.toISOString().slice(0, 10);
}

export async function runPostgresBench(options: PostgresBenchOptions, log: (line: string) => void): Promise<PostgresBenchResult> {
  const loadBefore = os.loadavg()[0];
  const SQL = await loadSqlJs();
  const server = await startPostgres();
  try {
    const url = server.createDatabase('bench');
    // A measurement: a statement may run past serve's 15 s timeout at 4M rates, and its time is what is wanted.
    const pool = createPool(url, { max: 4, statementTimeoutMs: 600_000 });
    let t = performance.now();
    const rates = buildDatabase(SQL, ceilingRatesDataset, options.records);
    log(`generated ${options.records} rates in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    await loadIntoPostgres(pool, { ceilingrates: { db: rates, origin: 'bench' } });
    const ratesLoadMs = performance.now() - t;
    log(`loaded the rates into Postgres in ${(ratesLoadMs / 1000).toFixed(1)} s`);

    let newest: Database;
    let oldest: Database;
    let oldestDate: string;
    let websitesLoadMs = 0;
    let history: LoadedWeek[] | undefined;
    if (options.realWeeks) {
      history = await loadWeeks(pool, { print: log });
      websitesLoadMs = history.reduce((ms, w) => ms + w.ms, 0);
      // Loaded newest first; the engine answers over the imports of the newest and the oldest.
      oldestDate = history[history.length - 1].date;
      newest = (await weekDatabase(SQL, history[0].date)).db;
      oldest = (await weekDatabase(SQL, oldestDate)).db;
      log(`loaded ${history.length} real weeks in ${(websitesLoadMs / 1000).toFixed(1)} s (mapping and load)`);
    } else {
      // Each week: a different record count, so the weeks differ; the newest is the engine's dataset.
      newest = rates;
      for (let i = 0; i < options.weeks; i++) {
        const count = options.websites - (options.weeks - 1 - i) * 10;
        const week = buildDatabase(SQL, websitesDataset, Math.max(100, count));
        t = performance.now();
        await loadIntoPostgres(pool, { websites: { db: week, origin: `week ${i + 1}` }, snapshot: weekDate(i, options.weeks) });
        websitesLoadMs += performance.now() - t;
        if (i === options.weeks - 1) newest = week;
        else week.close();
      }
      log(`loaded ${options.weeks} Site Scanning week(s) of about ${options.websites} records in ${(websitesLoadMs / 1000).toFixed(1)} s`);
      oldest = buildDatabase(SQL, websitesDataset, Math.max(100, options.websites - (options.weeks - 1) * 10));
      oldestDate = weekDate(0, options.weeks);
    }
    const weeks = history?.length ?? options.weeks;

    const engine = createEngine();
    engine.use('ceilingrates', rates);
    engine.use('websites', newest);
    const oldestEngine = createEngine();
    // Under its own date: the engine answers the dated paths as they are asked (their links in that week too).
    oldestEngine.use('websites', oldest, null, oldestDate);
    const answers = new PostgresAnswers(pool);
    await answers.warm();

    const vendor = String(rates.exec('SELECT vendor_name FROM ceilingrates WHERE id = 1000')[0]?.values[0]?.[0] ?? 'Acme');
    const piid = String(rates.exec('SELECT idv_piid FROM ceilingrates WHERE id = 1000')[0]?.values[0]?.[0] ?? 'GS');
    const agencies = newest.exec('SELECT target_url_agency_owner FROM websites GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 2')[0].values.map((r) => String(r[0]));
    const requests: [string, string][] = [
      ...workload({ vendor, piid }).map((r) => [r.kind, r.url] as [string, string]),
      ...websiteRequests(agencies, oldestDate),
    ];

    /** The engine's answer: the dated paths from the engine over that week's records. */
    const engineAnswer = (path: string): string =>
      comparable((path.startsWith(`/snapshots/${oldestDate}`) ? oldestEngine : engine).handle({ method: 'GET', url: path }).body);

    const differences: string[] = [];
    for (const [, path] of requests) {
      const a = engineAnswer(path);
      const b = comparable((await answers.handle({ method: 'GET', url: path })).body);
      if (a !== b) differences.push(path);
    }
    log(`answers compared: ${requests.length - differences.length} of ${requests.length} identical`);

    const engineSamples = new Samples();
    const postgresSamples = new Samples();
    for (let round = 0; round < options.rounds; round++) {
      for (const [kind, path] of requests) {
        let started = performance.now();
        engineAnswer(path);
        engineSamples.add(kind, performance.now() - started);
        started = performance.now();
        await answers.handle({ method: 'GET', url: path });
        postgresSamples.add(kind, performance.now() - started);
      }
    }
    const kinds: PostgresBenchResult['kinds'] = {};
    for (const kind of new Set(requests.map(([k]) => k))) kinds[kind] = { engine: engineSamples.kind(kind), postgres: postgresSamples.kind(kind) };
    answers.close();
    await pool.end();
    return {
      records: options.records,
      websites: options.websites,
      weeks,
      rounds: options.rounds,
      websites_source: history ? 'real weeks' : 'generated',
      load_ms: { ceilingrates: Math.round(ratesLoadMs), websites_per_week: Math.round(websitesLoadMs / weeks) },
      ...(history ? { history } : {}),
      kinds,
      differences,
      load_average: { before: loadBefore, after: os.loadavg()[0] },
    };
  } finally {
    server.stop();
  }
}

export function postgresTable(result: PostgresBenchResult): string {
  const f = (n: number): string => n.toFixed(2).padStart(9);
  const lines = [
    `Postgres column: ${result.records} rates, ${result.weeks} ${result.websites_source} week(s) of websites${result.history ? '' : ` (~${result.websites} each)`}, ${result.rounds} rounds; load average ${result.load_average.before.toFixed(2)} → ${result.load_average.after.toFixed(2)}`,
    `load: rates ${(result.load_ms.ceilingrates / 1000).toFixed(1)} s, websites ${(result.load_ms.websites_per_week / 1000).toFixed(1)} s per week`,
    `${'kind'.padEnd(18)} ${'engine p50'.padStart(10)} ${'p95'.padStart(9)} ${'postgres p50'.padStart(12)} ${'p95'.padStart(9)}`,
  ];
  for (const [kind, { engine, postgres }] of Object.entries(result.kinds)) {
    lines.push(`${kind.padEnd(18)} ${f(engine.p50_ms).padStart(10)} ${f(engine.p95_ms)} ${f(postgres.p50_ms).padStart(12)} ${f(postgres.p95_ms)}`);
  }
  lines.push(result.differences.length ? `DIFFERENT answers: ${result.differences.join(', ')}` : "every answer identical to the engine's (took aside)");
  return lines.join('\n');
}
