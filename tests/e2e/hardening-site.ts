/**
 * The built app (the browser tests' build) served with datasets of our own: a few generated records plus
 * every hostile record of tools/generate/hostile.ts. The manifest keeps the build's version, so the built
 * service worker (which checks the version it was built with) installs and caches these files as its own.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadSqlJs } from '../../adapters/node/datasets/sqljs-node.ts';
import { GENERATORS, buildDatabase } from '../../tools/generated-datasets.ts';
import { MANIFEST_FILE, sha256Hex, type Manifest } from '../../dataset/artifact/format.ts';
import { gzipDatabase } from '../../adapters/node/datasets/dataset-writer.ts';
import { insertHostileRecords } from '../../tools/generate/hostile.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Copy the served build (`dataDir` is its `data/` directory) to `outDir`, with hostile datasets in `data/`. */
export async function buildHostileSite(dataDir: string, outDir: string, generated = 40): Promise<{ root: string; rows: Record<string, number> }> {
  const root = resolve(ROOT, outDir);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  cpSync(dirname(dataDir), root, { recursive: true, filter: (src) => !src.endsWith('.map') && resolve(src) !== resolve(dataDir) });
  const built = JSON.parse(readFileSync(join(dataDir, MANIFEST_FILE), 'utf8')) as Manifest;
  const out = join(root, 'data');
  mkdirSync(out, { recursive: true });
  const SQL = await loadSqlJs();
  const manifest: Manifest = { version: built.version, datasets: {} };
  const rows: Record<string, number> = {};
  for (const def of GENERATORS) {
    const db = buildDatabase(SQL, def, generated);
    rows[def.name] = insertHostileRecords(db, def.name);
    const counted = def.countRows(db);
    const raw = db.export();
    db.close();
    const gz = gzipDatabase(raw);
    const file = `${def.name}.sqlite.gz`;
    writeFileSync(join(out, file), gz);
    manifest.datasets[def.name] = {
      name: def.name,
      file,
      bytes: gz.length,
      rawBytes: raw.length,
      sha256: await sha256Hex(gz),
      rows: counted,
      source: { kind: 'synthetic', label: 'test data', profile: 'hostile', seed: def.seed },
    };
  }
  writeFileSync(join(out, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  return { root, rows };
}
