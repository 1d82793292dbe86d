/**
 * The real datasets that tests, benchmarks and scripts open — a Site Scanning week through the import core, the GSA
 * price-list rates — built once per set of inputs and kept as SQLite files under .tmp/fixtures/. A week's import
 * takes 10–25 s; a suite that opened it in every file spent minutes rebuilding the same bytes.
 *
 * The key is a hash of everything that decides the bytes (data/ and the code of engine/, dataset/, tools/), so an
 * edit to the import or the data builds them again, and a stale file is never read.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import type { DatasetSource } from '../dataset/artifact/format.ts';
import { gsaRatesDatabase, snapshotDatabase } from '../tools/real-data.ts';
import { startBuildWorker } from '../tools/build-worker.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CACHE = resolve(ROOT, '.tmp/fixtures');

/** A real dataset the build can make: one week of Site Scanning (its date), or the shipped price lists' rates. */
export type RealFixture = { kind: 'snapshot'; date: string } | { kind: 'gsa-rates' };

interface Kept {
  raw: Uint8Array;
  source: DatasetSource;
}

let key: string | undefined;

/** The inputs' hash: data/, and the sources of the layers the build reads (a few MB of code, 40 MB of data). */
export function fixturesKey(): string {
  if (key) return key;
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(path);
      } else if (entry.isFile()) hash.update(relative(ROOT, path)).update(readFileSync(path));
    }
  };
  for (const dir of ['data', 'engine', 'dataset', 'tools']) walk(resolve(ROOT, dir));
  hash.update(readFileSync(resolve(ROOT, 'package-lock.json')));
  key = hash.digest('hex').slice(0, 16);
  return key;
}

const fixtureName = (fixture: RealFixture): string => (fixture.kind === 'snapshot' ? `snapshot-${fixture.date}` : 'gsa-rates');
const paths = (fixture: RealFixture): { db: string; source: string } => {
  const base = resolve(CACHE, `${fixtureName(fixture)}-${fixturesKey()}`);
  return { db: `${base}.sqlite`, source: `${base}.json` };
};

function read(fixture: RealFixture): Kept | null {
  const { db, source } = paths(fixture);
  if (!existsSync(db) || !existsSync(source)) return null;
  return { raw: new Uint8Array(readFileSync(db)), source: JSON.parse(readFileSync(source, 'utf8')) as DatasetSource };
}

/** Written beside, then renamed: a reader sees the whole file or none (two processes may build the same one). */
function keep(fixture: RealFixture, kept: Kept): void {
  mkdirSync(CACHE, { recursive: true });
  const { db, source } = paths(fixture);
  const stamp = `.${process.pid}.${Date.now()}`;
  writeFileSync(db + stamp, kept.raw);
  writeFileSync(source + stamp, JSON.stringify(kept.source));
  renameSync(db + stamp, db);
  renameSync(source + stamp, source);
}

/** Fixtures of an older key: a clone edited many times would otherwise keep every version. */
function dropStale(): void {
  if (!existsSync(CACHE)) return;
  for (const name of readdirSync(CACHE)) if (!name.includes(fixturesKey())) rmSync(resolve(CACHE, name), { force: true });
}

async function buildHere(SQL: SqlJsStatic, fixture: RealFixture): Promise<Kept> {
  const { db, source } = fixture.kind === 'snapshot' ? await snapshotDatabase(SQL, fixture.date) : gsaRatesDatabase(SQL);
  const raw = db.export();
  db.close();
  return { raw, source };
}

/** The fixture's database, opened from its kept file (built here first when missing). */
export async function openRealFixture(SQL: SqlJsStatic, fixture: RealFixture): Promise<{ db: Database; source: DatasetSource }> {
  let kept = read(fixture);
  if (!kept) {
    kept = await buildHere(SQL, fixture);
    keep(fixture, kept);
  }
  return { db: new SQL.Database(kept.raw), source: kept.source };
}

/** A real week of Site Scanning, as `snapshotDatabase` imports it. */
export const realSnapshot = (SQL: SqlJsStatic, date: string): Promise<{ db: Database; source: DatasetSource }> =>
  openRealFixture(SQL, { kind: 'snapshot', date });

/** The shipped price lists' ceiling rates, as `gsaRatesDatabase` builds them. */
export const realRates = (SQL: SqlJsStatic): Promise<{ db: Database; source: DatasetSource }> => openRealFixture(SQL, { kind: 'gsa-rates' });

/**
 * Builds every missing fixture before the tests start, on as many threads as there are fixtures and cores (each
 * week's import is one thread's work). Says what it built and how long it took.
 */
export async function buildRealFixtures(
  SQL: SqlJsStatic,
  fixtures: readonly RealFixture[],
  say: (line: string) => void = () => {},
  threads = 2,
): Promise<void> {
  dropStale();
  const missing = fixtures.filter((fixture) => !read(fixture));
  if (!missing.length) return;
  const started = performance.now();
  const snapshots = missing.filter((f): f is Extract<RealFixture, { kind: 'snapshot' }> => f.kind === 'snapshot');
  const workers = Array.from({ length: Math.min(threads, snapshots.length) }, () => startBuildWorker());
  try {
    const onThreads = snapshots.map(async (fixture, i) => {
      const { raw, source } = await workers[i % workers.length].run({ kind: 'snapshot', date: fixture.date });
      keep(fixture, { raw, source: source! });
    });
    // The rates are a few seconds' work on this thread while the weeks import on the others.
    for (const fixture of missing) if (fixture.kind === 'gsa-rates') keep(fixture, await buildHere(SQL, fixture));
    await Promise.all(onThreads);
  } finally {
    await Promise.all(workers.map((w) => w.close()));
  }
  say(`real fixtures: ${missing.map(fixtureName).join(', ')} built in ${((performance.now() - started) / 1000).toFixed(1)} s (.tmp/fixtures/)`);
}

/**
 * `tsx harness/real-fixtures.ts <fixture>…` (`snapshot:2025-06-09`, `gsa-rates`): the test suites' global setups run
 * the build in a process of its own (their module runner cannot start a tsx thread).
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const fixtures = process.argv.slice(2).map((arg): RealFixture => {
    const [kind, date] = arg.split(':');
    if (kind === 'snapshot' && date) return { kind, date };
    if (kind === 'gsa-rates') return { kind };
    throw new Error(`unknown fixture ${arg} (snapshot:YYYY-MM-DD or gsa-rates)`);
  });
  const { loadSqlJs } = await import('../adapters/node/sqljs-node.ts');
  await buildRealFixtures(await loadSqlJs(), fixtures, (line) => console.log(line));
}
