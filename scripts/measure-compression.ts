/**
 * What each compression level costs the build in seconds and the first visit in bytes (decision 0106), over the
 * first-visit databases of a built data directory:
 *   npx tsx scripts/measure-compression.ts [--data public/data] [--datasets websites,ceilingrates]
 *     [--gzip 1,…,9] [--brotli 5,…,11] [--lgwin 22,24] [--out .tmp/build-figures/compression.json]
 * Per dataset: fflate's gzip (what the build uses) and zlib's at each level, Brotli at each quality and window,
 * with the seconds each took on this thread and Node's decode time of each Brotli copy; then the two datasets'
 * chosen copies compressed at once on libuv's pool (as the build does) against one after the other.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliDecompressSync, gunzipSync, gzipSync as zlibGzipSync } from 'node:zlib';
import { gzipSync } from 'fflate';
import { brotliDatabase, brotliDatabaseAsync, gzipDatabaseAsync, TRANSFER_BROTLI } from '../adapters/node/datasets/dataset-writer.ts';
import type { Manifest } from '../dataset/artifact/format.ts';

const list = (text: string): number[] => text.split(',').filter(Boolean).map(Number);
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: 'public/data' },
    datasets: { type: 'string', default: 'websites,ceilingrates' },
    gzip: { type: 'string', default: '1,3,6,9' },
    brotli: { type: 'string', default: '5,6,7,8,9,10,11' },
    lgwin: { type: 'string', default: '22,24' },
    out: { type: 'string', default: '.tmp/build-figures/compression.json' },
  },
});
const dataDir = resolve(values.data!);
const manifest = JSON.parse(readFileSync(join(dataDir, 'manifest.json'), 'utf8')) as Manifest;

function timed<T>(work: () => T): [T, number] {
  const started = performance.now();
  const value = work();
  return [value, Number(((performance.now() - started) / 1000).toFixed(2))];
}

const say = (line: string): void => console.log(`compression: ${line}`);
const figures: Record<string, unknown> = { data: dataDir, version: manifest.version, loadBefore: loadavg().map((l) => Number(l.toFixed(2))) };
const raws: Record<string, Uint8Array> = {};
for (const name of values.datasets!.split(',')) {
  const artifact = manifest.datasets[name as keyof Manifest['datasets']];
  if (!artifact) throw new Error(`${name} is not a first-visit dataset of ${dataDir}`);
  const raw = new Uint8Array(gunzipSync(readFileSync(join(dataDir, artifact.file))));
  raws[name] = raw;
  const rows: Record<string, unknown>[] = [];
  say(`${name}: ${raw.length} bytes raw`);
  for (const level of list(values.gzip!)) {
    const [f, fs] = timed(() => gzipSync(raw, { level: level as 1, mtime: 0 }));
    const [z, zs] = timed(() => zlibGzipSync(raw, { level }));
    rows.push({ codec: 'gzip', level, fflateBytes: f.length, fflateSeconds: fs, zlibBytes: z.length, zlibSeconds: zs });
    say(`${name}: gzip -${level}: fflate ${f.length} bytes in ${fs} s, zlib ${z.length} bytes in ${zs} s`);
  }
  for (const lgwin of list(values.lgwin!)) {
    for (const quality of list(values.brotli!)) {
      const [b, bs] = timed(() => brotliDatabase(raw, { quality, lgwin }));
      const [, decodeSeconds] = timed(() => brotliDecompressSync(b));
      rows.push({ codec: 'brotli', quality, lgwin, bytes: b.length, seconds: bs, decodeSeconds });
      say(`${name}: brotli q${quality} w${lgwin}: ${b.length} bytes in ${bs} s (decode ${decodeSeconds} s)`);
    }
  }
  figures[name] = { rawBytes: raw.length, rows };
}

// The build compresses on libuv's pool while its thread builds the next database; on two cores, two at once.
if (Object.keys(raws).length > 1) {
  const all = Object.values(raws);
  const jobs = (): Promise<Uint8Array>[] => all.flatMap((raw) => [brotliDatabaseAsync(raw, TRANSFER_BROTLI), gzipDatabaseAsync(raw)]);
  let started = performance.now();
  for (const raw of all) {
    await brotliDatabaseAsync(raw, TRANSFER_BROTLI);
    await gzipDatabaseAsync(raw);
  }
  const oneAfterAnother = Number(((performance.now() - started) / 1000).toFixed(2));
  started = performance.now();
  await Promise.all(jobs());
  const atOnce = Number(((performance.now() - started) / 1000).toFixed(2));
  figures.chosen = { brotli: TRANSFER_BROTLI, oneAfterAnotherSeconds: oneAfterAnother, atOnceSeconds: atOnce };
  say(`the chosen copies of ${Object.keys(raws).join(' and ')}: ${oneAfterAnother} s one after another, ${atOnce} s at once`);
}
figures.loadAfter = loadavg().map((l) => Number(l.toFixed(2)));
mkdirSync(dirname(resolve(values.out!)), { recursive: true });
writeFileSync(resolve(values.out!), JSON.stringify(figures, null, 2) + '\n');
say(`wrote ${values.out}`);
