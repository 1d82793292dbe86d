import { sha256Hex, type DatasetArtifact } from './format.ts';

/** The file that arrived is not the one the manifest describes. */
export class DatasetIntegrityError extends Error {
  override name = 'DatasetIntegrityError';
}

/**
 * Check downloaded gzip'd bytes against the manifest: size first (cheap, and names a truncated download),
 * then sha256. `contentEncoding` is the response's header: a server that gzip-encodes the transfer makes
 * the browser hand over the unpacked file, whose hash can never match (docs/decisions/0302).
 */
export async function verifyArtifact(gz: Uint8Array, artifact: DatasetArtifact, contentEncoding: string | null = null): Promise<void> {
  if (contentEncoding && gz.length !== artifact.bytes) {
    throw new DatasetIntegrityError(
      `${artifact.file}: the server sent it with Content-Encoding: ${contentEncoding}, so the browser unpacked it and its sha256 cannot be checked: serve .gz dataset files as application/gzip without Content-Encoding`,
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
}
