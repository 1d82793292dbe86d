import { MANIFEST_FILE, sha256Hex, type DatasetArtifact, type Manifest } from './format.ts';
import type { DatasetName } from '../../engine/http/types.ts';
import { DATASET_NAMES } from '../../engine/dataset-registry.ts';

/** `base` + `file`, where base is a directory URL with or without its trailing slash. */
export function resolveDataUrl(baseUrl: string, file: string): string {
  const base = baseUrl.endsWith('/') ? baseUrl : baseUrl + '/';
  return new URL(file, new URL(base, globalThis.location?.href ?? 'http://localhost/')).href;
}

/** Where the manifest of a data directory is. */
export function manifestUrl(baseUrl: string): string {
  return resolveDataUrl(baseUrl, MANIFEST_FILE);
}

/** Read and check the manifest the build wrote beside the dataset files, from its response. */
export async function readManifest(response: Response | undefined, url: string): Promise<Manifest> {
  if (!response) throw new Error(`manifest: ${url} is not cached and cannot be fetched (offline)`);
  if (!response.ok) throw new Error(`manifest: ${url} answered HTTP ${response.status}`);
  let value: unknown;
  try {
    value = await response.json();
  } catch {
    throw new Error(`manifest: ${url} is not JSON`);
  }
  return checkManifest(value, url);
}

export function checkManifest(value: unknown, url: string): Manifest {
  const m = value as Manifest | null;
  if (!m || typeof m.version !== 'string' || !m.datasets || typeof m.datasets !== 'object') {
    throw new Error(`manifest: ${url} has no version or datasets`);
  }
  for (const [name, artifact] of Object.entries(m.datasets)) {
    if (!DATASET_NAMES.includes(name as DatasetName)) throw new Error(`manifest: unknown dataset "${name}"`);
    const a = artifact as DatasetArtifact | null;
    if (!a || typeof a.file !== 'string' || typeof a.bytes !== 'number' || typeof a.sha256 !== 'string') {
      throw new Error(`manifest: dataset "${name}" lacks file, bytes or sha256`);
    }
  }
  return m;
}

/** The manifest's datasets in a stable order. */
export function manifestArtifacts(manifest: Manifest): DatasetArtifact[] {
  return DATASET_NAMES.flatMap((name) => (manifest.datasets[name] ? [manifest.datasets[name]] : []));
}

/**
 * The manifest's version: the first 12 hex digits of the sha256 of the first visit's files' sha256, so it changes
 * whenever a file every visit downloads changes. The extras (fetched on demand, each checked by its own sha256) are
 * not part of it: a build may add or rebuild them later (`npm start` builds them after it starts serving; a package
 * gets them with `fetch-extra`) without offering every open app an update of data it already has.
 */
export async function manifestVersion(manifest: Manifest): Promise<string> {
  const shas = Object.values(manifest.datasets)
    .map((a) => a!.sha256)
    .join('');
  return (await sha256Hex(new TextEncoder().encode(shas))).slice(0, 12);
}
