import { gunzipDatabase, sha256Hex, type DatasetArtifact } from './artifact.ts';
import { resolveDataUrl } from './manifest.ts';
import { readBody } from './read-body.ts';

/** The file that arrived is not the one the manifest describes. */
export class DatasetIntegrityError extends Error {
  override name = 'DatasetIntegrityError';
}

export interface FetchDatasetOptions {
  /** HTTP cache mode: `reload` when the user asked to start over. */
  cache?: RequestCache;
  /** Sees the response headers (e.g. Last-Modified) before the body is read. */
  onHeaders?: (headers: Headers) => void;
  /** Reported before the (synchronous, CPU-bound) steps that follow the download. */
  onPhase?: (phase: 'verify' | 'decompress') => void;
}

/** The download and its checks alone: the gzip'd bytes, verified against the manifest. */
export async function downloadArtifact(
  baseUrl: string,
  artifact: DatasetArtifact,
  onProgress: (received: number, total: number) => void,
  options: FetchDatasetOptions = {},
): Promise<Uint8Array> {
  const url = resolveDataUrl(baseUrl, artifact.file);
  const response = await fetch(url, { cache: options.cache ?? 'default' });
  if (!response.ok) throw new Error(`${artifact.file}: HTTP ${response.status} from ${url}`);
  options.onHeaders?.(response.headers);
  const gz = await readBody(response, artifact.bytes, (received) => onProgress(received, artifact.bytes));

  options.onPhase?.('verify');
  if (gz.length === artifact.rawBytes && response.headers.get('content-encoding')) {
    throw new DatasetIntegrityError(
      `${artifact.file}: the server sent it with Content-Encoding: ${response.headers.get('content-encoding')}, so the browser unpacked it and its sha256 cannot be checked: serve .gz dataset files as application/gzip without Content-Encoding`,
    );
  }
  if (gz.length !== artifact.bytes) {
    throw new DatasetIntegrityError(
      `${artifact.file}: received ${gz.length} bytes, the manifest says ${artifact.bytes}: the download is incomplete or from another build`,
    );
  }
  const sha = await sha256Hex(gz);
  if (sha !== artifact.sha256) {
    throw new DatasetIntegrityError(
      `${artifact.file}: sha256 mismatch (manifest ${artifact.sha256}, received ${sha}): the file is corrupt or from another build`,
    );
  }
  return gz;
}

/**
 * Native gzip (DecompressionStream: workers, service workers, Node 18+) is several times faster than the
 * JavaScript inflater and leaves the thread free while it runs; fflate remains for where it is missing.
 */
export async function gunzip(gz: Uint8Array, rawBytes: number): Promise<Uint8Array> {
  if (typeof DecompressionStream === 'undefined') return gunzipDatabase(gz);
  const stream = new Blob([gz as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  return readBody(new Response(stream), rawBytes, () => {});
}
