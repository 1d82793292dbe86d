/**
 * Build step: generate every dataset for a profile, write each as a gzip'd SQLite file and a manifest.
 *   tsx tools/build-data.ts --profile default --out public/data
 * Output is deterministic: the same profile gives byte-identical files.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadSqlJs } from '../adapters/node/sqljs-node.ts';
import { GENERATORS, buildDatabase, type Profile } from './datasets.ts';
import { MANIFEST_FILE, sha256Hex, type DatasetArtifact, type Manifest } from '../dataset/artifact/format.ts';
import { gzipDatabase } from './gzip-database.ts';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'default' },
    out: { type: 'string', default: 'public/data' },
    force: { type: 'boolean', default: false },
  },
});
const profile = values.profile as Profile;
if (profile !== 'default' && profile !== 'small') throw new Error(`unknown profile ${profile}`);
const out = values.out!;

/** Skip the (slow) generation when the output already holds this profile, unless --force. */
async function upToDate(): Promise<boolean> {
  try {
    const manifest = JSON.parse(await readFile(join(out, MANIFEST_FILE), 'utf8')) as Manifest;
    const stamp = JSON.parse(await readFile(join(out, '.build-stamp.json'), 'utf8')) as { profile: string; generator: string };
    return stamp.profile === profile && stamp.generator === (await generatorHash()) && Object.keys(manifest.datasets).length === GENERATORS.length;
  } catch {
    return false;
  }
}

/** A hash of the generator and schema sources, so a changed generator rebuilds. */
async function generatorHash(): Promise<string> {
  const files = ['tools/build-data.ts', 'tools/datasets.ts', 'tools/random.ts', 'dataset/artifact/format.ts', 'tools/gzip-database.ts', 'engine/site-scanning/schema.ts', 'engine/ceilingrates/schema.ts'];
  const { readdir } = await import('node:fs/promises');
  for (const dir of ['tools/generate', 'tools/vocab']) {
    for (const f of (await readdir(dir)).sort()) files.push(join(dir, f));
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
  for (const def of GENERATORS) {
    const started = performance.now();
    const db = buildDatabase(SQL, def, profile);
    const rows = def.countRows(db);
    const raw = db.export();
    db.close();
    const gz = gzipDatabase(raw);
    const file = `${def.name}.sqlite.gz`;
    await writeFile(join(out, file), gz);
    const artifact: DatasetArtifact = {
      name: def.name,
      file,
      bytes: gz.length,
      rawBytes: raw.length,
      sha256: await sha256Hex(gz),
      rows,
      source: { profile, seed: def.seed },
    };
    manifest.datasets[def.name] = artifact;
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`data: ${file} ${JSON.stringify(rows)} ${raw.length} bytes raw, ${gz.length} gzip'd, ${secs}s`);
  }
  const shas = Object.values(manifest.datasets).map((a) => a.sha256).join('');
  manifest.version = (await sha256Hex(new TextEncoder().encode(shas))).slice(0, 12);
  await writeFile(join(out, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  await writeFile(join(out, '.build-stamp.json'), JSON.stringify({ profile, generator: await generatorHash() }));
  console.log(`data: manifest version ${manifest.version} in ${out}`);
}

await main();
