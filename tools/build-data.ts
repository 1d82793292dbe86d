/**
 * Build step: every dataset of a profile as a gzip'd SQLite file, and the manifest.
 *   tsx tools/build-data.ts --profile default|small|synthetic --out public/data
 * - default: the real Site Scanning week of 2025-06-09 (data/, through the import core) and the real ceiling
 *   rates of GSA's 2025 MAS price lists (data/, price-lists/records.ts); plus datasets fetched on demand (every
 *   week of Site Scanning, the websites' attachment; the 2017 Schedule 70 list; the 250,000 synthetic rates for scale).
 * - small: both generated, small (fast tests). synthetic: both generated at scale (30,000 websites; bench, scale tests).
 * Output is deterministic: the same profile gives byte-identical files.
 *   --phase first-visit: only the first visit's datasets (the manifest keeps extras still current); --phase extras:
 *   the extras too (after the first visit's, when those are not current). `npm start` serves after the first and
 *   builds the extras behind it (tools/start.ts). Default: all.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import type { Database } from 'sql.js';
import { GENERATORS, type DatasetGenerator } from './generated-datasets.ts';
import { toShippedForm } from './shipped-form.ts';
import { MANIFEST_FILE, sha256Hex, type DatasetArtifact, type DatasetSource, type ExtraArtifact, type Manifest } from '../dataset/artifact/format.ts';
import { manifestVersion } from '../dataset/artifact/manifest.ts';
import { attachmentOf, datasetDefinition } from '../engine/dataset-registry.ts';
import type { DatasetName } from '../engine/http/types.ts';
import { countRows } from '../dataset/sqlite-catalogue.ts';
import { TRANSFER_BROTLI, artifactOf, packDatabase, transferFileName } from '../adapters/node/datasets/dataset-writer.ts';
import { buildLog, megabytes, type BuildLog, type StepLog } from './build-progress.ts';
import { gsaRatesDatabase, s70Database } from './real-data.ts';
import { NEWEST_WEEK, newestWeekRecords, weekDatabase } from './site-scanning-source/shipped-weeks.ts';
import { startBuildWorker, type BuildJob, type BuildWorker } from './build-worker.ts';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'default' },
    out: { type: 'string', default: 'public/data' },
    force: { type: 'boolean', default: false },
    phase: { type: 'string', default: 'all' },
  },
});
const PHASES = ['all', 'first-visit', 'extras'] as const;
const phase = values.phase as (typeof PHASES)[number];
if (!PHASES.includes(phase)) throw new Error(`unknown phase ${phase} (one of ${PHASES.join(', ')})`);
const PROFILES = ['default', 'small', 'synthetic'] as const;
type BuildProfile = (typeof PROFILES)[number];
const profile = values.profile as BuildProfile;
if (!PROFILES.includes(profile)) throw new Error(`unknown profile ${profile} (one of ${PROFILES.join(', ')})`);
const out = values.out!;

/** How one file of the build is made: its database and where its records came from. */
interface Recipe {
  name: DatasetName;
  build(SQL: Awaited<ReturnType<typeof loadSqlJs>>, say: StepLog): Promise<{ db: Database; source: DatasetSource }>;
  /** Asks the second thread at once for what `build` will need, so it is made while this thread builds the others. */
  start?(say: StepLog): void;
}

let thread: BuildWorker | undefined;
const threadJobs = new Map<string, Promise<{ raw: Uint8Array; source?: DatasetSource }>>();

/** A database from the second thread, made once (a job asked for early is awaited where it is needed). */
function onThread(job: BuildJob, say: StepLog, asking?: string): Promise<{ raw: Uint8Array; source?: DatasetSource }> {
  const key = JSON.stringify(job);
  let made = threadJobs.get(key);
  if (!made) {
    if (asking) say(asking);
    thread ??= startBuildWorker();
    made = thread.run(job, say);
    // Whoever builds with it awaits it and fails the build; until then a failure must not end the process alone.
    made.catch(() => undefined);
    threadJobs.set(key, made);
  }
  return made;
}

function generated(def: DatasetGenerator, size: 'default' | 'small'): Recipe {
  const job: BuildJob = { kind: 'generated', name: def.name, size };
  const count = def.profiles[size];
  const what = def.name === 'websites' ? 'websites' : 'ceiling rates';
  return {
    name: def.name,
    start(say) {
      void onThread(job, say, `generating ${count.toLocaleString('en-US')} ${what} (seed ${def.seed}) on the second thread`);
    },
    async build(SQL, say) {
      const { raw } = await onThread(job, say);
      const label = `Synthetic: ${count.toLocaleString('en-US')} generated ${what} (not real data; seed ${def.seed})`;
      return { db: new SQL.Database(raw), source: { kind: 'synthetic', label, profile: size, seed: def.seed } };
    },
  };
}

const generator = (name: DatasetName): DatasetGenerator => GENERATORS.find((d) => d.name === name)!;

/**
 * Every shipped week as the websites' weeks attachment (engine/site-scanning/weeks-schema.ts), built on the second
 * thread while this one imports the newest week and the rates.
 */
const realWeeks: Recipe = {
  name: 'websites',
  start: (say) => void onThread({ kind: 'weeks' }, say, 'writing every shipped week of Site Scanning (data/) on the second thread'),
  async build(SQL, say) {
    const { raw, source } = await onThread({ kind: 'weeks' }, say);
    return { db: new SQL.Database(raw), source: source! };
  },
};

/** The newest week, imported through the import core as the import of its file. */
const realNewestWeek: Recipe = {
  name: 'websites',
  async build(SQL, say) {
    say(`reading the Site Scanning week of ${NEWEST_WEEK} (data/, 119 MB of JSON)`);
    say(`${newestWeekRecords().length.toLocaleString('en-US')} records read; importing them through the import core`);
    return weekDatabase(SQL, NEWEST_WEEK, { progress: say.importProgress });
  },
};

const realRates: Recipe = {
  name: 'ceilingrates',
  build: async (SQL, say) => {
    say('reading the GSA MAS price lists (data/) into records');
    return gsaRatesDatabase(SQL);
  },
};
const realS70: Recipe = {
  name: 'ceilingrates',
  build: (SQL, say) => {
    say('importing the 2017 Schedule 70 list (data/) through the import core');
    return s70Database(SQL);
  },
};
const S70_EXTRA = { ...realS70, id: 'ceilingrates-s70-2017', title: 'IT Schedule 70 price list of 2017 (real, 4,144 rates)' };

/** The first visit's datasets per profile, and the extras fetched on demand. */
const RECIPES: Record<BuildProfile, { datasets: Recipe[]; extras: (Recipe & { id: string; title: string })[] }> = {
  default: {
    datasets: [realNewestWeek, realRates],
    extras: [
      { ...realWeeks, id: datasetDefinition('websites').attachment!.id, title: 'Every week of Site Scanning (real, 17 weeks from 2025-02-10 to 2025-06-09)' },
      S70_EXTRA,
      {
        ...generated(generator('ceilingrates'), 'default'),
        id: 'ceilingrates-synthetic',
        title: 'Synthetic ceiling rates for scale tests (250,000 generated, not real)',
      },
    ],
  },
  // The real price list is small (183 KB): the browser tests load it as an extra.
  small: { datasets: GENERATORS.map((def) => generated(def, 'small')), extras: [S70_EXTRA] },
  synthetic: { datasets: GENERATORS.map((def) => generated(def, 'default')), extras: [] },
};

const seconds = (from: number): string => ((performance.now() - from) / 1000).toFixed(1);

/**
 * Builds one recipe's database on this thread and starts its compression on others. The manifest entry comes
 * later (`artifact`), so this thread builds the next database meanwhile: on two cores the compression of one
 * overlaps the import of the next.
 */
async function build(
  SQL: Awaited<ReturnType<typeof loadSqlJs>>,
  recipe: Recipe,
  file: string,
  log: BuildLog,
  transfer = false,
  extra?: string,
): Promise<{ artifact: Promise<DatasetArtifact> }> {
  const say = log.step(file);
  const started = performance.now();
  const { db, source } = await recipe.build(SQL, say);
  // An extra that is an attachment (the weeks) has its own tables and form.
  const attachment = extra === undefined ? undefined : attachmentOf(extra)?.attachment;
  const rows = countRows(db, attachment?.tables ?? datasetDefinition(recipe.name).tables);
  say(
    `${Object.values(rows)
      .reduce((n, r) => n + r, 0)
      .toLocaleString('en-US')} records; writing the shipped form (page size, VACUUM)`,
  );
  toShippedForm(db, attachment?.id ?? recipe.name);
  const raw = db.export();
  db.close();
  // The first visit's datasets also get the browser's smaller transfer copy (the extras are fetched rarely).
  const brotli = transfer ? `, Brotli q${TRANSFER_BROTLI.quality}` : '';
  say(`${megabytes(raw.length)} built in ${seconds(started)} s; compressing (gzip -9${brotli}) on other threads`);
  return { artifact: compressed(raw, recipe.name, file, { rows, source }, log, transfer) };
}

/** Writes a database's gzip'd file (and its transfer copy) into `out`, compressed off this thread; its manifest entry. */
async function compressed(
  raw: Uint8Array,
  name: DatasetName,
  file: string,
  { rows, source }: Pick<DatasetArtifact, 'rows' | 'source'>,
  log: BuildLog,
  transfer: boolean,
): Promise<DatasetArtifact> {
  const brFile = transferFileName(file);
  const { quality, lgwin } = TRANSFER_BROTLI;
  const packed = await packDatabase(raw, transfer, (what, made) =>
    what === 'gzip'
      ? log.track(`gzip of ${file}`, made, (bytes, secs) => `${file}: ${megabytes(bytes.length)} gzip -9 in ${secs.toFixed(1)} s`)
      : log.track(
          `Brotli of ${brFile}`,
          made,
          (bytes, secs) => `${brFile}: ${megabytes(bytes.length)} Brotli q${quality} (window ${lgwin}) in ${secs.toFixed(1)} s`,
        ),
  );
  await writeFile(join(out, file), packed.gz);
  if (packed.br) await writeFile(join(out, brFile), packed.br);
  log(
    `${file} ${JSON.stringify(rows)} ${raw.length} bytes raw, ${packed.gz.length} gzip'd${packed.br ? `, ${packed.br.length} brotli` : ''} — ${source?.label}`,
  );
  return artifactOf({ name, file, rawBytes: raw.length, rows, source }, packed);
}

/** What the output directory holds: its profile, the sources it was built from, and whether its extras are built. */
interface BuildStamp {
  profile: string;
  generator: string;
  extras: boolean;
}
const STAMP_FILE = '.build-stamp.json';

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(join(out, file), 'utf8')) as T;
  } catch {
    return null;
  }
}

/** A hash of the generator and schema sources, so a changed generator rebuilds. */
async function generatorHash(): Promise<string> {
  const files = [
    'tools/build-data.ts',
    'tools/generated-datasets.ts',
    'tools/shipped-form.ts',
    'tools/random.ts',
    'tools/real-data.ts',
    'tools/site-scanning-source/weeks-dataset.ts',
    'tools/site-scanning-source/shipped-weeks.ts',
    'tools/site-scanning-source/week-changes.ts',
    'engine/site-scanning/weeks-schema.ts',
    'engine/site-scanning/weeks-writer.ts',
    'engine/site-scanning/site-weeks.ts',
    'engine/site-scanning/measures.ts',
    'dataset/artifact/format.ts',
    'adapters/node/datasets/dataset-writer.ts',
    'engine/site-scanning/schema.ts',
    'engine/site-scanning/record.ts',
    'engine/site-scanning/stored-record.ts',
    'engine/site-scanning/parameters.ts',
    'engine/ceilingrates/schema.ts',
    'tools/price-lists/source.ts',
  ];
  const { readdir } = await import('node:fs/promises');
  // The import core maps the real files: a change to it rebuilds them.
  for (const dir of [
    'tools/generate',
    'tools/vocab',
    'data',
    'data/site-scanning-weeks',
    'dataset/import',
    'dataset/import/websites',
    'dataset/import/ceilingrates',
    'dataset/price-lists',
  ]) {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.isFile()) files.push(join(dir, entry.name));
    }
  }
  const parts = await Promise.all(files.map((f) => readFile(f)));
  const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    joined.set(p, at);
    at += p.length;
  }
  return sha256Hex(joined);
}

async function main(): Promise<void> {
  const generator = await generatorHash();
  const { datasets, extras } = RECIPES[profile];
  const stamp = await readJson<BuildStamp>(STAMP_FILE);
  const current = await readJson<Manifest>(MANIFEST_FILE);
  const sameSources = !values.force && stamp?.profile === profile && stamp.generator === generator && current !== null;
  // Skip the (slow) generation of what the output already holds, unless --force.
  const datasetsCurrent = sameSources && Object.keys(current!.datasets).length === datasets.length;
  const extrasCurrent = sameSources && (extras.length === 0 || (stamp!.extras && current!.extras?.length === extras.length));
  const buildDatasets = !datasetsCurrent;
  const buildExtras = phase !== 'first-visit' && !extrasCurrent;
  if (!buildDatasets && !buildExtras) {
    console.log(`data: ${out} already holds the ${profile} profile${phase === 'first-visit' ? "'s first-visit datasets" : ''} (use --force to rebuild)`);
    return;
  }
  const log = buildLog();
  await mkdir(out, { recursive: true });
  const SQL = await loadSqlJs();
  const building = [buildDatasets ? `${datasets.length} datasets for the first visit` : '', buildExtras ? `${extras.length} fetched on demand` : '']
    .filter(Boolean)
    .join(', ');
  log(`building the ${profile} profile into ${out}: ${building}`);
  if (buildDatasets) for (const recipe of datasets) recipe.start?.(log.step(`${recipe.name}.sqlite.gz`));
  if (buildExtras) for (const extra of extras) extra.start?.(log.step(`${extra.id}.sqlite.gz`));
  const manifest: Manifest = { version: '', datasets: {} };
  if (buildDatasets) {
    const firstVisit: Promise<DatasetArtifact>[] = [];
    for (const recipe of datasets) firstVisit.push((await build(SQL, recipe, `${recipe.name}.sqlite.gz`, log, true)).artifact);
    for (const artifact of await Promise.all(firstVisit)) manifest.datasets[artifact.name] = artifact;
  } else manifest.datasets = current!.datasets;
  let extraArtifacts: ExtraArtifact[] = [];
  if (buildExtras) {
    const pendingExtras: Promise<ExtraArtifact>[] = [];
    for (const extra of extras) {
      const { artifact } = await build(SQL, extra, `${extra.id}.sqlite.gz`, log, false, extra.id);
      pendingExtras.push(artifact.then((a) => ({ ...a, id: extra.id, title: extra.title })));
    }
    extraArtifacts = await Promise.all(pendingExtras);
  } else if (extrasCurrent) extraArtifacts = current!.extras ?? [];
  await thread?.close();
  log.stop();
  if (extraArtifacts.length) manifest.extras = extraArtifacts;
  manifest.version = await manifestVersion(manifest);
  await writeFile(join(out, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  const extrasBuilt = extras.length === 0 || extraArtifacts.length === extras.length;
  await writeFile(join(out, STAMP_FILE), JSON.stringify({ profile, generator, extras: extrasBuilt } satisfies BuildStamp));
  const later = extrasBuilt ? '' : ` (the ${extras.length} extras are not built: --phase extras)`;
  log(`manifest version ${manifest.version} in ${out}${later}`);
}

await main();
