import { sha256Hex, transferArtifact, type DatasetArtifact } from '../../dataset/artifact/format.ts';
import { manifestArtifacts, manifestUrl, resolveDataUrl } from '../../dataset/artifact/manifest.ts';
import type { VerifiedFiles } from '../../dataset/artifact/acquire.ts';

/** The data caches' names: this prefix and the manifest version (one cache per dataset version). */
export const DATA_CACHE_PREFIX = 'offline-gov-api-data-';

export function dataCacheName(version: string): string {
  return DATA_CACHE_PREFIX + version;
}

/** The response headers worth keeping from the server: the DB worker reads size, type and date from them. */
const KEPT_HEADERS = ['content-type', 'last-modified', 'etag'];

async function kept(response: Response): Promise<{ gz: Uint8Array; fileDate: string | null }> {
  const modified = response.headers.get('last-modified');
  const time = modified ? Date.parse(modified) : NaN;
  return { gz: new Uint8Array(await response.arrayBuffer()), fileDate: Number.isNaN(time) ? null : new Date(time).toISOString() };
}

/** A verified file as the data cache keeps it. */
export function keptResponse(gz: Uint8Array, headersFrom: Headers | Record<string, string | null>): Response {
  const headers = new Headers({ 'content-length': String(gz.length), 'content-type': 'application/gzip' });
  for (const name of KEPT_HEADERS) {
    const value = headersFrom instanceof Headers ? headersFrom.get(name) : headersFrom[name];
    if (value) headers.set(name, value);
  }
  return new Response(gz as Uint8Array<ArrayBuffer>, { status: 200, headers });
}

/**
 * The data cache of one dataset version as the place verified files are kept for every context (Cache
 * Storage: the DB worker writes what it downloaded, the service worker's own engine reads it offline).
 * The manifest is written last, by `complete`, once every dataset file of it is there: the service worker
 * answers from this cache only then. Null where there is no Cache Storage.
 */
export function dataCacheFiles(version: string, cacheStorage: CacheStorage | undefined = globalThis.caches): VerifiedFiles | null {
  if (!cacheStorage) return null;
  const open = () => cacheStorage.open(dataCacheName(version));
  return {
    async read(artifact: DatasetArtifact, url: string) {
      const own = await (await open()).match(url, { ignoreSearch: true });
      if (own) return kept(own);
      // Another version's cache may hold the same file (a dataset the new build did not change): taken, and
      // copied into this version's cache, only when it is that file.
      for (const key of await cacheStorage.keys()) {
        if (!key.startsWith(DATA_CACHE_PREFIX) || key === dataCacheName(version)) continue;
        const other = await (await cacheStorage.open(key)).match(url, { ignoreSearch: true });
        if (!other || Number(other.headers.get('content-length')) !== artifact.bytes) continue;
        const headers = other.headers;
        const found = await kept(other);
        if ((await sha256Hex(found.gz)) !== artifact.sha256) continue;
        await (await open()).put(url, keptResponse(found.gz, headers));
        return found;
      }
      return null;
    },
    async write(_artifact, url, gz, fileDate) {
      await (await open()).put(url, keptResponse(gz, { 'last-modified': fileDate ? new Date(fileDate).toUTCString() : null }));
    },
    async complete(manifest, dataUrl, decoders, unpacked = new Set()) {
      const cache = await open();
      for (const artifact of manifestArtifacts(manifest)) {
        if (unpacked.has(artifact.name)) continue;
        if (!(await cache.match(resolveDataUrl(dataUrl, transferArtifact(artifact, decoders).file)))) return false;
      }
      const url = manifestUrl(dataUrl);
      if (!(await cache.match(url))) await cache.put(url, new Response(JSON.stringify(manifest), { headers: { 'content-type': 'application/json' } }));
      return true;
    },
  };
}
