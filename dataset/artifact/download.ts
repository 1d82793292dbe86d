import type { DatasetArtifact } from './format.ts';
import { readBody } from './read-body.ts';
import { verifyArtifact } from './verify.ts';

/**
 * The gzip'd bytes of one dataset file from its response, checked against the manifest (size, sha256,
 * no Content-Encoding); `onBytes` sees the bytes as they arrive, `onVerify` the start of the check.
 */
export async function readArtifact(
  response: Response | undefined,
  url: string,
  artifact: DatasetArtifact,
  onBytes: (received: number) => void = () => {},
  onVerify: () => void = () => {},
): Promise<Uint8Array> {
  if (!response) throw new Error(`${artifact.file}: not cached and cannot be fetched (offline) from ${url}`);
  if (!response.ok) throw new Error(`${artifact.file}: HTTP ${response.status} from ${url}`);
  const gz = await readBody(response, artifact.bytes, onBytes);
  onVerify();
  await verifyArtifact(gz, artifact, response.headers.get('content-encoding'));
  return gz;
}
