/**
 * What the dataset files would weigh in other encodings and layouts (issue 24, "fewer bytes"), over the built
 * files in a data directory:
 *   npx tsx scripts/measure-encodings.ts [--data public/data] [--out .tmp/pwa-figures/encodings.json] [--datasets websites,ceilingrates] [--no-delta]
 * (Brotli at quality 11 takes minutes per dataset on a small machine: --datasets picks which.)
 * Per dataset: the shipped gzip -9 (fflate), zlib's gzip -9, Brotli q11 (window 24), the database at 4, 16 and
 * 64 KiB pages (gzip -9), without its indexes (gzip -9, and the time sql.js takes to build them again), and a
 * column-wise dump of its tables (every column's values one after another, gzip -9 and Brotli), with the
 * decode time of each in Node. And the weekly-change figures: what a new Site Scanning version costs whole,
 * as the SQLite pages that changed (content-addressed 4 and 64 KiB pages), and as the record changes shipped
 * in data/ (the 2025-02-10 snapshot against 2025-06-09).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import type { Database, SqlJsStatic } from 'sql.js';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { gzipDatabase } from '../adapters/node/datasets/dataset-writer.ts';
import type { Manifest } from '../dataset/artifact/format.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: 'public/data' },
    out: { type: 'string', default: '.tmp/pwa-figures/encodings.json' },
    datasets: { type: 'string', default: 'websites,ceilingrates' },
    'no-delta': { type: 'boolean', default: false },
  },
});
const only = new Set(values.datasets!.split(',').filter(Boolean));
const dataDir = resolve(values.data!);
const manifest = JSON.parse(readFileSync(join(dataDir, 'manifest.json'), 'utf8')) as Manifest;
const SQL = await loadSqlJs();

const brotli = (bytes: Uint8Array) =>
  brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });

function timed<T>(work: () => T): [T, number] {
  const started = performance.now();
  const value = work();
  return [value, Math.round(performance.now() - started)];
}

function repaged(SQL: SqlJsStatic, raw: Uint8Array, pageSize: number): Uint8Array {
  const db = new SQL.Database(raw);
  db.run(`PRAGMA page_size = ${pageSize}`);
  db.run('VACUUM');
  const out = db.export();
  db.close();
  return out;
}

function withoutIndexes(SQL: SqlJsStatic, raw: Uint8Array): { bytes: Uint8Array; rebuildMs: number; indexes: number } {
  const db = new SQL.Database(raw);
  const indexes = db.exec("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")[0]?.values ?? [];
  for (const [name] of indexes) db.run(`DROP INDEX "${String(name)}"`);
  db.run('VACUUM');
  const bytes = db.export();
  db.close();
  const again = new SQL.Database(bytes);
  const [, rebuildMs] = timed(() => {
    for (const [, sql] of indexes) again.run(String(sql));
  });
  again.close();
  return { bytes, rebuildMs, indexes: indexes.length };
}

function columnWise(db: Database): Uint8Array {
  const parts: string[] = [];
  const tables = db.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")[0]?.values ?? [];
  for (const [table] of tables) {
    const result = db.exec(`SELECT * FROM "${String(table)}"`)[0];
    if (!result) continue;
    for (let c = 0; c < result.columns.length; c++) {
      parts.push(
        result.values
          .map((row) =>
            row[c] === null
              ? '\\N'
              : row[c] instanceof Uint8Array
                ? Buffer.from(row[c] as Uint8Array).toString('base64')
                : String(row[c]).replace(/[\n\\]/g, (ch) => (ch === '\n' ? '\\n' : '\\\\')),
          )
          .join('\n'),
      );
    }
  }
  return new TextEncoder().encode(parts.join('\n\u0000\n'));
}

/** The pages of `next` whose bytes appear nowhere in `previous` (content-addressed), gzip'd: what a page delta moves. */
function pageDelta(previous: Uint8Array, next: Uint8Array, pageSize: number): { pages: number; changed: number; gzipBytes: number } {
  const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
  const known = new Set<string>();
  for (let at = 0; at < previous.length; at += pageSize) known.add(hash(previous.subarray(at, at + pageSize)));
  const changed: Uint8Array[] = [];
  let pages = 0;
  for (let at = 0; at < next.length; at += pageSize) {
    pages++;
    const page = next.subarray(at, at + pageSize);
    if (!known.has(hash(page))) changed.push(page);
  }
  return { pages, changed: changed.length, gzipBytes: gzipDatabase(Buffer.concat(changed)).length };
}

const figures: Record<string, unknown> = { data: dataDir, version: manifest.version };
for (const artifact of Object.values(manifest.datasets)) {
  if (!only.has(artifact!.name)) continue;
  const gz = readFileSync(join(dataDir, artifact!.file));
  const [raw, gunzipMs] = timed(() => new Uint8Array(gunzipSync(gz)));
  const br = brotli(raw);
  const [, brotliDecodeMs] = timed(() => brotliDecompressSync(br));
  const pages: Record<string, number> = {};
  for (const size of [4096, 16384, 65536]) pages[size] = gzipDatabase(repaged(SQL, raw, size)).length;
  const bare = withoutIndexes(SQL, raw);
  const db = new SQL.Database(raw);
  const columns = columnWise(db);
  db.close();
  figures[artifact!.name] = {
    rawBytes: raw.length,
    shippedGzip9: gz.length,
    zlibGzip9: gzipSync(raw, { level: 9 }).length,
    brotli11: br.length,
    decodeMsInNode: { gunzip: gunzipMs, brotli: brotliDecodeMs },
    gzip9ByPageSize: pages,
    withoutIndexes: { indexes: bare.indexes, gzip9: gzipDatabase(bare.bytes).length, brotli11: brotli(bare.bytes).length, rebuildMsInNode: bare.rebuildMs },
    columnWise: { rawBytes: columns.length, gzip9: gzipDatabase(columns).length, brotli11: brotli(columns).length },
  };
  console.log(artifact!.name, JSON.stringify(figures[artifact!.name]));
}

// A new Site Scanning version: the 2025-02-10 build (an extra) to the 2025-06-09 one (the default).
const older = manifest.extras?.find((e) => e.name === 'websites');
const newer = manifest.datasets.websites;
if (older && newer && !values['no-delta']) {
  const before = new Uint8Array(gunzipSync(readFileSync(join(dataDir, older.file))));
  const after = new Uint8Array(gunzipSync(readFileSync(join(dataDir, newer.file))));
  const changes = readFileSync(resolve(import.meta.dirname, '../data/site-scanning-2025-02-10.changes.json.br'));
  figures.websitesNewVersion = {
    from: older.id,
    to: 'websites (2025-06-09)',
    wholeFileGzip9: newer.bytes,
    pageDelta64KiB: pageDelta(before, after, 65536),
    pageDelta4KiB: pageDelta(repaged(SQL, before, 4096), repaged(SQL, after, 4096), 4096),
    recordChangesBrotli: changes.length,
    recordChangesGzip9: gzipDatabase(new Uint8Array(brotliDecompressSync(changes))).length,
  };
  console.log('websitesNewVersion', JSON.stringify(figures.websitesNewVersion));
}
figures.loadAverage = loadavg().map((l) => Number(l.toFixed(2)));
mkdirSync(dirname(resolve(values.out!)), { recursive: true });
writeFileSync(resolve(values.out!), JSON.stringify(figures, null, 2) + '\n');
