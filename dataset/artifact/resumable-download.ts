import { contentRange } from './byte-range.ts';
import type { DatasetArtifact } from './format.ts';
import type { PartialStore } from './partial-store.ts';
import { DatasetIntegrityError, verifyArtifact } from './verify.ts';

/** What a download has done so far: the figures the progress text is made of. */
export interface DownloadProgress {
  /** Bytes of the file on this machine: kept from before plus received now. */
  received: number;
  /** The file's size (the manifest's). */
  total: number;
  /** Where this download resumed (the bytes kept from an earlier, cut download), or null when it started at 0. */
  resumedAt: number | null;
}

export interface ResumableDownload {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  url: string;
  artifact: DatasetArtifact;
  /** Where the chunks are kept as they arrive (null: nothing kept, a cut download starts again at 0). */
  partials: PartialStore | null;
  /** The cache mode of a download from 0 (a resumed one never goes through the HTTP cache). */
  cache?: RequestCache;
  onProgress?: (progress: DownloadProgress) => void;
  /** Bytes per kept chunk: at most this much is downloaded twice when the context dies mid-download. */
  chunkBytes?: number;
  /**
   * Every byte of the file in order, as it is had: the kept bytes of a resumed download first, then each read.
   * An attempt that starts again from 0 starts again at offset 0. The bytes are not yet checked (a decoder fed
   * them must wait for the sha256 before its output is used); the array is not to be modified.
   */
  onBytes?: (bytes: Uint8Array, offset: number) => void;
}

/** The verified gzip'd bytes, with the server's date and how the download went. */
export interface DownloadedArtifact {
  gz: Uint8Array;
  /** Last-Modified of the last response (ISO 8601), or null. */
  fileDate: string | null;
  /** Where the download resumed (null: from 0). */
  resumedAt: number | null;
  /** Bytes received over the network by this call (the rest were kept from before). */
  transferred: number;
}

export const CHUNK_BYTES = 256 * 1024;

/**
 * Download one dataset file so that a cut download resumes: the chunks are kept as they arrive (a failed
 * read keeps what came before it), and the next call asks the server for the rest with `Range: bytes=N-`.
 * A server that ignores Range (200) gives the whole file again; one that answers 416, or a Content-Range
 * other than the rest of a file of the manifest's size, makes the kept bytes suspect: they are dropped and the
 * file downloaded from 0. The whole file is checked (size, sha256) before it is returned; a resumed file
 * that fails the check is downloaded once more from 0, and a file from 0 that fails it is an error. Nothing
 * already in use is touched: the caller swaps the verified bytes in.
 */
export async function downloadResumable(options: ResumableDownload): Promise<DownloadedArtifact> {
  const { artifact, partials } = options;
  let kept = partials ? await partials.read(artifact).catch(() => new Uint8Array()) : new Uint8Array();
  if (kept.length > artifact.bytes) kept = await dropKept(options);
  if (kept.length === artifact.bytes) {
    // A download that completed but was never swapped in (the context went away during the check).
    try {
      await verifyArtifact(kept, artifact);
      return { gz: kept, fileDate: null, resumedAt: kept.length, transferred: 0 };
    } catch {
      kept = await dropKept(options);
    }
  }
  try {
    return await attempt(options, kept);
  } catch (error) {
    if (!(error instanceof SuspectResume)) throw error;
    // The kept bytes and the server disagree: start again from 0, once.
    return attempt(options, await dropKept(options));
  }
}

/** The kept bytes and the server's answer do not make the manifest's file: try once more from 0. */
class SuspectResume extends Error {}

async function dropKept({ partials, artifact }: ResumableDownload): Promise<Uint8Array> {
  await partials?.clear(artifact).catch(() => {});
  return new Uint8Array();
}

async function attempt(options: ResumableDownload, kept: Uint8Array): Promise<DownloadedArtifact> {
  const { artifact, url, partials } = options;
  const from = kept.length;
  const resumedAt = from > 0 ? from : null;
  options.onProgress?.({ received: from, total: artifact.bytes, resumedAt });
  const response = await options.fetch(url, from > 0 ? { cache: 'no-store', headers: { range: `bytes=${from}-` } } : { cache: options.cache ?? 'default' });
  if (from > 0 && response.status === 416) {
    await response.body?.cancel();
    throw new SuspectResume(`${artifact.file}: the server has no byte ${from}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`${artifact.file}: HTTP ${response.status} from ${url}`);
  }
  let start = 0;
  if (response.status === 206) {
    const range = contentRange(response.headers.get('content-range'));
    if (!range || range.start !== from || range.size !== artifact.bytes) {
      await response.body?.cancel();
      throw new SuspectResume(
        `${artifact.file}: the server sent ${response.headers.get('content-range') ?? 'no Content-Range'} for the bytes from ${from} of ${artifact.bytes}`,
      );
    }
    start = from;
  } else if (from > 0) {
    // The server ignores Range: this is the whole file, and the kept chunks no longer line up with it.
    await partials?.clear(artifact).catch(() => {});
  }
  const buffer = new Uint8Array(artifact.bytes);
  if (start > 0) {
    buffer.set(kept.subarray(0, start));
    options.onBytes?.(buffer.subarray(0, start), 0);
  }
  const contentEncoding = response.headers.get('content-encoding');
  const transferred = await readInto(response, buffer, start, options, start > 0 ? resumedAt : null);
  const size = start + transferred.length;
  const gz = size === buffer.length ? buffer : buffer.slice(0, size);
  try {
    if (transferred.overflow)
      throw new DatasetIntegrityError(`${artifact.file}: the server sent more than the manifest's ${artifact.bytes} bytes: the file is from another build`);
    await verifyArtifact(gz, artifact, contentEncoding);
  } catch (error) {
    await partials?.clear(artifact).catch(() => {});
    if (start > 0) throw new SuspectResume(error instanceof Error ? error.message : String(error));
    throw error;
  }
  await partials?.clear(artifact).catch(() => {});
  return { gz, fileDate: toIsoDate(response.headers.get('last-modified')), resumedAt: start > 0 ? start : null, transferred: transferred.length };
}

/**
 * Read the body into `buffer` from `start`, keeping each full chunk as it completes; a read that fails keeps
 * the part of a chunk that came before it, then fails.
 */
async function readInto(
  response: Response,
  buffer: Uint8Array,
  start: number,
  { artifact, partials, onProgress, onBytes, chunkBytes = CHUNK_BYTES }: ResumableDownload,
  resumedAt: number | null,
): Promise<{ length: number; overflow: boolean }> {
  let at = start;
  let chunkStart = start;
  let overflow = false;
  // Chunk writes run one after another, beside the reading.
  let writes: Promise<void> = Promise.resolve();
  const keep = (end: number) => {
    if (!partials || end <= chunkStart) return;
    const offset = chunkStart;
    const bytes = buffer.slice(offset, end);
    chunkStart = end;
    writes = writes.then(() => partials.write(artifact, offset, bytes)).catch(() => {});
  };
  const body = response.body;
  if (!body) {
    const all = new Uint8Array(await response.arrayBuffer());
    overflow = start + all.length > buffer.length;
    buffer.set(all.subarray(0, buffer.length - start), start);
    onBytes?.(buffer.subarray(start, start + Math.min(all.length, buffer.length - start)), start);
    return { length: Math.min(all.length, buffer.length - start), overflow };
  }
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (at + value.length > buffer.length) {
        overflow = true;
        await reader.cancel();
        break;
      }
      buffer.set(value, at);
      onBytes?.(value, at);
      at += value.length;
      if (at - chunkStart >= chunkBytes) keep(at);
      onProgress?.({ received: at, total: buffer.length, resumedAt });
    }
  } catch (error) {
    keep(at);
    await writes;
    throw brokenOff(artifact.file, at, buffer.length, error, partials !== undefined);
  }
  // The file is whole (or wrong): it is checked next, and the chunks are cleared either way.
  await writes;
  return { length: at - start, overflow };
}

/**
 * A cut connection in the app's words: each browser words it its own way ("network error", "Error in input
 * stream"), and neither says how far it got or that the next try resumes. The browser's words are kept, last.
 */
function brokenOff(file: string, at: number, total: number, error: unknown, kept: boolean): Error {
  const why = error instanceof Error ? error.message : String(error);
  const count = (n: number) => n.toLocaleString('en-US');
  const next = kept ? `; the ${count(at)} bytes received are kept and the next try resumes from there` : '';
  return new Error(`${file}: the download broke off after ${count(at)} of ${count(total)} bytes${next} (${why})`, { cause: error });
}

function toIsoDate(httpDate: string | null): string | null {
  if (!httpDate) return null;
  const time = Date.parse(httpDate);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
