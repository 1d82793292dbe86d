/**
 * The real datasets that tests, benchmarks and scripts open — a Site Scanning week through the import core, the
 * weeks attachment as the build makes it, the GSA price-list rates — built once per set of inputs and cached as SQLite
 * files under .tmp/fixtures/. A week's import takes 10–25 s and the weeks a minute or two; a suite that opened them in
 * every file spent minutes rebuilding the same bytes.
 *
 * The key is a hash of everything that decides the bytes (data/ and the code of engine/, dataset/, tools/), so an
 * edit to the import or the data builds them again, and a stale file is never read.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import type { DatasetSource } from '../dataset/artifact/format.ts';
import { gsaRatesDatabase } from '../tools/real-data.ts';
import { weekDatabase } from '../tools/site-scanning-source/shipped-weeks.ts';
import { weeksDatabase } from '../tools/site-scanning-source/weeks-dataset.ts';
import { startBuildWorker } from '../tools/build-worker.ts';
import { takeProcessLock } from '../adapters/node/datasets/process-lock.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CACHE = resolve(ROOT, '.tmp/fixtures');

/** A real dataset the build can make: one week of Site Scanning (its date), every week (the attachment), or the shipped price lists' rates. */
export type RealFixture = { kind: 'week'; date: string } | { kind: 'weeks' } | { kind: 'gsa-rates' };

interface BuiltFixture {
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

const fixtureName = (fixture: RealFixture): string => (fixture.kind === 'week' ? `week-${fixture.date}` : fixture.kind);
const paths = (fixture: RealFixture): { db: string; source: string } => {
  const base = resolve(CACHE, `${fixtureName(fixture)}-${fixturesKey()}`);
  return { db: `${base}.sqlite`, source: `${base}.json` };
};

function read(fixture: RealFixture): BuiltFixture | null {
  const { db, source } = paths(fixture);
  if (!existsSync(db) || !existsSync(source)) return null;
  return { raw: new Uint8Array(readFileSync(db)), source: JSON.parse(readFileSync(source, 'utf8')) as DatasetSource };
}

/** Written beside, then renamed: a reader sees the whole file or none (two processes may build the same one). */
function cache(fixture: RealFixture, built: BuiltFixture): void {
  mkdirSync(CACHE, { recursive: true });
  const { db, source } = paths(fixture);
  const stamp = `.${process.pid}.${Date.now()}`;
  writeFileSync(db + stamp, built.raw);
  writeFileSync(source + stamp, JSON.stringify(built.source));
  renameSync(db + stamp, db);
  renameSync(source + stamp, source);
}

/**
 * Fixtures of an older key (a clone edited many times would otherwise hold every version), and files a stopped
 * builder left half-written. Called with the builders' lock held: no other process is writing.
 */
function dropStale(): void {
  const current = new RegExp(`-${fixturesKey()}\\.(sqlite|json)$`);
  for (const name of readdirSync(CACHE)) if (!name.startsWith('.') && !current.test(name)) rmSync(resolve(CACHE, name), { force: true });
}

async function buildHere(SQL: SqlJsStatic, fixture: RealFixture): Promise<BuiltFixture> {
  const { db, source } =
    fixture.kind === 'week' ? await weekDatabase(SQL, fixture.date) : fixture.kind === 'weeks' ? weeksDatabase(SQL) : gsaRatesDatabase(SQL);
  const raw = db.export();
  db.close();
  return { raw, source };
}

/** The builders' lock: one builder at a time across processes (the unit and browser suites run side by side). */
const LOCK = resolve(CACHE, '.building');

class Busy extends Error {}

async function whileBuilding<T>(run: () => Promise<T>): Promise<T> {
  mkdirSync(CACHE, { recursive: true });
  const release = await takeProcessLock(LOCK, { wait: true });
  try {
    return await run();
  } finally {
    await release();
  }
}

/**
 * The fixture's file once it is there: while another process builds, polled, so that a test starts as soon as the
 * builder writes its fixture rather than when the builder's whole batch is done; built here when nobody builds.
 */
async function readOrBuild(SQL: SqlJsStatic, fixture: RealFixture): Promise<BuiltFixture> {
  mkdirSync(CACHE, { recursive: true });
  for (;;) {
    const found = read(fixture);
    if (found) return found;
    const release = await takeProcessLock(LOCK, { busy: () => new Busy() }).catch((error: unknown) => {
      if (error instanceof Busy) return null;
      throw error;
    });
    if (!release) {
      await new Promise((again) => setTimeout(again, 500));
      continue;
    }
    try {
      const found = read(fixture);
      if (found) return found;
      const built = await buildHere(SQL, fixture);
      cache(fixture, built);
      return built;
    } finally {
      await release();
    }
  }
}

/** The fixture's database, opened from its cached file (built here first when missing). */
export async function openRealFixture(SQL: SqlJsStatic, fixture: RealFixture): Promise<{ db: Database; source: DatasetSource }> {
  const cached = await readOrBuild(SQL, fixture);
  return { db: new SQL.Database(cached.raw), source: cached.source };
}

/** A real week of Site Scanning, as the import of that week's file makes it (`weekDatabase`). */
export const realWeek = (SQL: SqlJsStatic, date: string): Promise<{ db: Database; source: DatasetSource }> => openRealFixture(SQL, { kind: 'week', date });

/** Every real week, as the build writes the websites dataset's weeks attachment (`weeksDatabase`). */
export const realWeeks = (SQL: SqlJsStatic): Promise<{ db: Database; source: DatasetSource }> => openRealFixture(SQL, { kind: 'weeks' });

/** The shipped price lists' ceiling rates, as `gsaRatesDatabase` builds them. */
export const realRates = (SQL: SqlJsStatic): Promise<{ db: Database; source: DatasetSource }> => openRealFixture(SQL, { kind: 'gsa-rates' });

/**
 * Builds every missing fixture before the tests start, on as many threads as there are fixtures and cores (each
 * week's import, and the weeks, is one thread's work). Says what it built and how long it took; `holding` once it
 * holds the builders' lock (from then on, a test that opens a fixture waits for this build to write it).
 */
export async function buildRealFixtures(
  SQL: SqlJsStatic,
  fixtures: readonly RealFixture[],
  { say = () => {}, holding = () => {}, threads = 2 }: { say?: (line: string) => void; holding?: () => void; threads?: number } = {},
): Promise<void> {
  if (fixtures.every((fixture) => read(fixture))) return;
  await whileBuilding(async () => {
    dropStale();
    holding();
    say('real fixtures: building');
    await buildMissing(SQL, fixtures, say, threads);
  });
}

async function buildMissing(SQL: SqlJsStatic, fixtures: readonly RealFixture[], say: (line: string) => void, threads: number): Promise<void> {
  const missing = fixtures.filter((fixture) => !read(fixture));
  if (!missing.length) return;
  const started = performance.now();
  // The weeks first: the longest job, so the shorter ones fill the other thread meanwhile, the newest week first
  // among them (the most tests open it, and each waits only for its own fixture: readOrBuild).
  const order = (f: RealFixture): string => (f.kind === 'weeks' ? '~' : f.kind === 'week' ? f.date : '');
  const threaded = missing
    .filter((f): f is Exclude<RealFixture, { kind: 'gsa-rates' }> => f.kind !== 'gsa-rates')
    .sort((a, b) => (order(a) < order(b) ? 1 : order(a) > order(b) ? -1 : 0));
  const workers = Array.from({ length: Math.min(threads, threaded.length) }, () => startBuildWorker());
  try {
    let next = 0;
    const onThreads = workers.map(async (worker) => {
      while (next < threaded.length) {
        const fixture = threaded[next++];
        const { raw, source } = await worker.run(fixture);
        cache(fixture, { raw, source: source! });
      }
    });
    // The rates are a few seconds' work on this thread while the weeks import on the others.
    for (const fixture of missing) if (fixture.kind === 'gsa-rates') cache(fixture, await buildHere(SQL, fixture));
    await Promise.all(onThreads);
  } finally {
    await Promise.all(workers.map((w) => w.close()));
  }
  say(`real fixtures: ${missing.map(fixtureName).join(', ')} built in ${((performance.now() - started) / 1000).toFixed(1)} s (.tmp/fixtures/)`);
}

/**
 * `tsx harness/real-fixtures.ts <fixture>…` (`week:2025-06-09`, `weeks`, `gsa-rates`): the test suites' global
 * setups run the build in a process of its own (their module runner cannot start a tsx thread).
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const fixtures = process.argv.slice(2).map((arg): RealFixture => {
    const [kind, date] = arg.split(':');
    if (kind === 'week' && date) return { kind, date };
    if (kind === 'weeks' || kind === 'gsa-rates') return { kind };
    throw new Error(`unknown fixture ${arg} (week:YYYY-MM-DD, weeks or gsa-rates)`);
  });
  const { loadSqlJs } = await import('../adapters/node/datasets/sqljs-node.ts');
  // Run by buildRealFixturesAside (build-aside.ts): it hears over IPC when the lock is held.
  await buildRealFixtures(await loadSqlJs(), fixtures, { say: (line) => console.log(line), holding: () => process.send?.('holding') });
  process.disconnect?.();
}
