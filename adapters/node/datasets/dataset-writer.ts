/**
 * How a dataset's database is written for shipping, wherever it is written (the data build, `update-rates`): gzip -9
 * with no timestamp (the file the manifest's sha256 and the Node doors check) and, for a first-visit dataset, the
 * browsers' Brotli transfer copy; and its manifest entry. One writer, so a file made either way is the same bytes.
 */
import { gzip, gzipSync } from 'fflate';
import { brotliCompress, brotliCompressSync, constants, type BrotliOptions } from 'node:zlib';
import { sha256Hex, type DatasetArtifact } from '../../../dataset/artifact/format.ts';

/** A gzip level, as fflate types it. */
export type GzipLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

/**
 * gzip with no timestamp or name in the header, so the same database gives the same bytes (the build's
 * sha256 and version depend on it). The app unpacks with the native DecompressionStream.
 * fflate rather than zlib: pure JavaScript, so the bytes do not change with the Node version's zlib.
 */
export function gzipDatabase(raw: Uint8Array, level: GzipLevel = 9): Uint8Array {
  return gzipSync(raw, { level, mtime: 0 });
}

/** gzipDatabase's bytes, made on a worker thread, so the build's thread goes on meanwhile. */
export function gzipDatabaseAsync(raw: Uint8Array, level: GzipLevel = 9): Promise<Uint8Array> {
  return new Promise((done, fail) => gzip(raw, { level, mtime: 0 }, (error, bytes) => (error ? fail(error) : done(bytes))));
}

export interface BrotliLevel {
  quality: number;
  /** log2 of the window: 24 (16 MiB) finds the repeats a database's pages spread far apart. */
  lgwin: number;
}

/** The most Brotli can do; what patches use (small files) and what the transfer copies used until decision 0106. */
export const BROTLI_MAX: BrotliLevel = { quality: 11, lgwin: 24 };

/**
 * The first visit's transfer copies: quality 7 with the 16 MiB window. Quality 11 saved a further 3–9 % of the
 * bytes and took 7–12 times as long, most of a newcomer's `npm start` (decision 0106 has the table).
 */
export const TRANSFER_BROTLI: BrotliLevel = { quality: 7, lgwin: 24 };

const brotliOptions = (raw: Uint8Array, level: BrotliLevel): BrotliOptions => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: level.quality,
    [constants.BROTLI_PARAM_LGWIN]: level.lgwin,
    [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
  },
});

/**
 * A Brotli copy of a database (websites 12.8 MB gzip -9 → 5.7 MB at quality 11; docs/decisions/0406).
 * Deterministic like gzipDatabase for a given Node. The app decodes it with a WebAssembly decoder.
 */
export function brotliDatabase(raw: Uint8Array, level: BrotliLevel = BROTLI_MAX): Uint8Array {
  return brotliCompressSync(raw, brotliOptions(raw, level));
}

/** brotliDatabase's bytes, made on libuv's pool, so the build's thread goes on meanwhile. */
export function brotliDatabaseAsync(raw: Uint8Array, level: BrotliLevel = BROTLI_MAX): Promise<Uint8Array> {
  return new Promise((done, fail) => brotliCompress(raw, brotliOptions(raw, level), (error, bytes) => (error ? fail(error) : done(new Uint8Array(bytes)))));
}

/** A database's shipped files: the gzip'd file and, when asked for, its Brotli transfer copy. */
export interface PackedDatabase {
  gz: Uint8Array;
  br: Uint8Array | null;
}

/**
 * Both files made off this thread (fflate's worker, libuv's pool), each through `track` (the build's progress
 * lines), so the caller builds the next database meanwhile.
 */
export async function packDatabase(
  raw: Uint8Array,
  transfer: boolean,
  track: <T extends Uint8Array>(what: 'gzip' | 'brotli', made: Promise<T>) => Promise<T> = (_what, made) => made,
): Promise<PackedDatabase> {
  const [gz, br] = await Promise.all([track('gzip', gzipDatabaseAsync(raw)), transfer ? track('brotli', brotliDatabaseAsync(raw, TRANSFER_BROTLI)) : null]);
  return { gz, br };
}

/** The transfer copy's name beside its gzip'd file. */
export const transferFileName = (file: string): string => file.replace(/\.gz$/, '.br');

/** The manifest entry of a database packed as `file` (its transfer copy named beside it). */
export async function artifactOf(
  { name, file, rawBytes, rows, source }: Pick<DatasetArtifact, 'name' | 'file' | 'rawBytes' | 'rows' | 'source'>,
  { gz, br }: PackedDatabase,
): Promise<DatasetArtifact> {
  return {
    name,
    file,
    bytes: gz.length,
    rawBytes,
    sha256: await sha256Hex(gz),
    rows,
    source,
    ...(br ? { transfer: { file: transferFileName(file), encoding: 'br' as const, bytes: br.length, sha256: await sha256Hex(br) } } : {}),
  };
}
