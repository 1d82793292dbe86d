/**
 * Build step: every dataset of a profile as a gzip'd SQLite file, and the manifest.
 *   tsx tools/build-data.ts --profile default|small|synthetic --out public/data
 * - default: the real Site Scanning snapshot of 2025-06-09 (data/, through the import core) and the real ceiling
 *   rates of GSA's 2025 MAS price lists (data/, price-lists/records.ts); plus datasets fetched on demand (the
 *   2025-02-10 snapshot, the 2017 Schedule 70 list, the 250,000 synthetic rates for scale).
 * - small: both generated, small (fast tests). synthetic: both generated at scale (30,000 websites; bench, scale tests).
 * Output is deterministic: the same profile gives byte-identical files.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadSqlJs } from '../adapters/node/sqljs-node.ts';
import type { Database } from 'sql.js';
import { GENERATORS, buildDatabase, type DatasetGenerator } from './generated-datasets.ts';
import { toShippedForm } from './shipped-form.ts';
import { MANIFEST_FILE, sha256Hex, type DatasetArtifact, type DatasetSource, type ExtraArtifact, type Manifest } from '../dataset/artifact/format.ts';
import { datasetDefinition } from '../engine/dataset-registry.ts';
import type { DatasetName } from '../engine/http/types.ts';
import { countRows } from '../dataset/sqlite-catalogue.ts';
import { brotliDatabase, gzipDatabase } from './gzip-database.ts';
import { writeHistory } from '../engine/site-scanning/history.ts';
import { FIRST_SNAPSHOT, NEWEST_SNAPSHOT, gsaRatesDatabase, s70Database, snapshotDatabase } from './real-data.ts';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'default' },
    out: { type: 'string', default: 'public/data' },
    force: { type: 'boolean', default: false },
  },
});
const PROFILES = ['default', 'small', 'synthetic'] as const;
type BuildProfile = (typeof PROFILES)[number];
const profile = values.profile as BuildProfile;
if (!PROFILES.includes(profile)) throw new Error(`unknown profile ${profile} (one of ${PROFILES.join(', ')})`);
const out = values.out!;

/** How one file of the build is made: its database and where its records came from. */
interface Recipe {
  name: DatasetName;
  build(SQL: Awaited<ReturnType<typeof loadSqlJs>>): Promise<{ db: Database; source: DatasetSource }>;
}

function generated(def: DatasetGenerator, size: 'default' | 'small'): Recipe {
  return {
    name: def.name,
    async build(SQL) {
      const count = def.profiles[size];
      const what = def.name === 'websites' ? 'websites' : 'ceiling rates';
      const label = `Synthetic: ${count.toLocaleString('en-US')} generated ${what} (not real data; seed ${def.seed})`;
      return { db: buildDatabase(SQL, def, size), source: { kind: 'synthetic', label, profile: size, seed: def.seed } };
    },
  };
}

const generator = (name: DatasetName): DatasetGenerator => GENERATORS.find((d) => d.name === name)!;

/** Snapshots already imported in this run, by date: the first week serves the history and its own extra. */
const imported = new Map<string, { raw: Uint8Array; source: DatasetSource }>();

async function snapshot(SQL: Awaited<ReturnType<typeof loadSqlJs>>, date: string): Promise<{ db: Database; source: DatasetSource }> {
  const done = imported.get(date);
  if (done) return { db: new SQL.Database(done.raw), source: done.source };
  const built = await snapshotDatabase(SQL, date);
  imported.set(date, { raw: built.db.export(), source: built.source });
  return built;
}

const realSnapshot = (date: string): Recipe => ({ name: 'websites', build: (SQL) => snapshot(SQL, date) });

/** The newest snapshot, with how each site's record differed in the first week (the detail view shows it). */
const realSnapshotWithHistory = (date: string, earlier: string): Recipe => ({
  name: 'websites',
  async build(SQL) {
    const built = await snapshotDatabase(SQL, date);
    const older = await snapshot(SQL, earlier);
    writeHistory(built.db, date, older.db, earlier);
    older.db.close();
    return built;
  },
});

const realRates: Recipe = { name: 'ceilingrates', build: async (SQL) => gsaRatesDatabase(SQL) };
const realS70: Recipe = { name: 'ceilingrates', build: (SQL) => s70Database(SQL) };
const S70_EXTRA = { ...realS70, id: 'ceilingrates-s70-2017', title: 'IT Schedule 70 price list of 2017 (real, 4,144 rates)' };

/** The first visit's datasets per profile, and the extras fetched on demand. */
const RECIPES: Record<BuildProfile, { datasets: Recipe[]; extras: (Recipe & { id: string; title: string })[] }> = {
  default: {
    datasets: [realSnapshotWithHistory(NEWEST_SNAPSHOT, FIRST_SNAPSHOT), realRates],
    extras: [
      { ...realSnapshot(FIRST_SNAPSHOT), id: `websites-${FIRST_SNAPSHOT}`, title: 'Site Scanning snapshot of 2025-02-10 (real, the first week)' },
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

/** Builds one recipe into `out`: the gzip'd database and its manifest entry. */
async function write(SQL: Awaited<ReturnType<typeof loadSqlJs>>, recipe: Recipe, file: string, transfer = false): Promise<DatasetArtifact> {
  const started = performance.now();
  const { db, source } = await recipe.build(SQL);
  const rows = countRows(db, datasetDefinition(recipe.name).tables);
  toShippedForm(db, recipe.name);
  const raw = db.export();
  db.close();
  const gz = gzipDatabase(raw);
  await writeFile(join(out, file), gz);
  // The first visit's datasets also get the browser's smaller transfer copy (the extras are fetched rarely).
  let br: Uint8Array | null = null;
  if (transfer) {
    br = brotliDatabase(raw);
    await writeFile(join(out, file.replace(/\.gz$/, '.br')), br);
  }
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `data: ${file} ${JSON.stringify(rows)} ${raw.length} bytes raw, ${gz.length} gzip'd${br ? `, ${br.length} brotli` : ''}, ${secs}s — ${source.label}`,
  );
  return {
    name: recipe.name,
    file,
    bytes: gz.length,
    rawBytes: raw.length,
    sha256: await sha256Hex(gz),
    rows,
    source,
    ...(br ? { transfer: { file: file.replace(/\.gz$/, '.br'), encoding: 'br' as const, bytes: br.length, sha256: await sha256Hex(br) } } : {}),
  };
}

/** Skip the (slow) generation when the output already holds this profile, unless --force. */
async function upToDate(): Promise<boolean> {
  try {
    const manifest = JSON.parse(await readFile(join(out, MANIFEST_FILE), 'utf8')) as Manifest;
    const stamp = JSON.parse(await readFile(join(out, '.build-stamp.json'), 'utf8')) as { profile: string; generator: string };
    return (
      stamp.profile === profile && stamp.generator === (await generatorHash()) && Object.keys(manifest.datasets).length === RECIPES[profile].datasets.length
    );
  } catch {
    return false;
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
    'dataset/artifact/format.ts',
    'tools/gzip-database.ts',
    'engine/site-scanning/schema.ts',
    'engine/site-scanning/record.ts',
    'engine/site-scanning/stored-record.ts',
    'engine/site-scanning/parameters.ts',
    'engine/site-scanning/history.ts',
    'engine/ceilingrates/schema.ts',
    'tools/price-lists/source.ts',
  ];
  const { readdir } = await import('node:fs/promises');
  // The import core maps the real files: a change to it rebuilds them.
  for (const dir of [
    'tools/generate',
    'tools/vocab',
    'data',
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
  if (!values.force && (await upToDate())) {
    console.log(`data: ${out} already holds the ${profile} profile (use --force to rebuild)`);
    return;
  }
  await mkdir(out, { recursive: true });
  const SQL = await loadSqlJs();
  const manifest: Manifest = { version: '', datasets: {} };
  const { datasets, extras } = RECIPES[profile];
  for (const recipe of datasets) manifest.datasets[recipe.name] = await write(SQL, recipe, `${recipe.name}.sqlite.gz`, true);
  const extraArtifacts: ExtraArtifact[] = [];
  for (const extra of extras) extraArtifacts.push({ ...(await write(SQL, extra, `${extra.id}.sqlite.gz`)), id: extra.id, title: extra.title });
  if (extraArtifacts.length) manifest.extras = extraArtifacts;
  const shas = [...Object.values(manifest.datasets), ...extraArtifacts].map((a) => a.sha256).join('');
  manifest.version = (await sha256Hex(new TextEncoder().encode(shas))).slice(0, 12);
  await writeFile(join(out, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  await writeFile(join(out, '.build-stamp.json'), JSON.stringify({ profile, generator: await generatorHash() }));
  console.log(`data: manifest version ${manifest.version} in ${out}`);
}

await main();
