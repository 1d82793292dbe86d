import type { DatasetArtifact } from '../../dataset/artifact/format.ts';
import { manifestArtifacts, manifestUrl, readManifest, resolveDataUrl } from '../../dataset/artifact/manifest.ts';
import { readArtifact } from '../../dataset/artifact/download.ts';
import { verifyArtifact } from '../../dataset/artifact/verify.ts';

const PREFIX = 'offline-gov-api-data-';

/** The response headers worth keeping from the server: the DB worker reads size, type and date from them. */
const KEPT_HEADERS = ['content-type', 'last-modified', 'etag'];

/**
 * The datasets on this machine, one cache per dataset version (the version this service worker was built
 * with). Not Workbox's precache: that fetches revisioned files with `cache: 'reload'`, which would send the
 * data over the network a second time on a first visit, after the DB worker already downloaded it. Here
 * the install asks the HTTP cache first, so the data crosses the network once.
 */
export class DatasetCache {
  readonly name: string;

  constructor(
    readonly version: string,
    private readonly dataUrl: string,
  ) {
    this.name = PREFIX + version;
  }

  /** Download what is missing, check each file against the manifest, and store the manifest last (it marks a complete set). */
  async install(): Promise<void> {
    if (!this.version) return;
    const cache = await caches.open(this.name);
    const url = manifestUrl(this.dataUrl);
    if (await cache.match(url)) return;
    const manifestResponse = await fetch(url, { cache: 'no-cache' });
    const manifest = await readManifest(manifestResponse.clone(), url);
    // The server now holds another build than this service worker's: fail, the browser retries later.
    if (manifest.version !== this.version) throw new Error(`server has datasets ${manifest.version}, this version expects ${this.version}`);
    for (const artifact of manifestArtifacts(manifest)) {
      const fileUrl = resolveDataUrl(this.dataUrl, artifact.file);
      if (await cache.match(fileUrl)) continue;
      let response: Response;
      try {
        response = await this.fetchVerified(fileUrl, 'default', artifact);
      } catch {
        // A stale copy in the HTTP cache: go to the server (its failure is the one reported).
        response = await this.fetchVerified(fileUrl, 'reload', artifact);
      }
      await cache.put(fileUrl, response);
    }
    await cache.put(url, manifestResponse);
  }

  /** A stored file, only once the set is complete. */
  async match(url: string): Promise<Response | undefined> {
    if (!this.version) return undefined;
    const cache = await caches.open(this.name);
    if (!(await cache.match(manifestUrl(this.dataUrl)))) return undefined;
    return cache.match(url, { ignoreSearch: true });
  }

  /**
   * A copy the user asked the server for again (the dataset panel's reset): store it in place of the cached
   * one when it matches this version's manifest, so a corrupted cached file is repaired, not met again on
   * the next visit. Anything that does not match is left out.
   */
  async repair(url: string, response: Response): Promise<void> {
    if (!this.version || !response.ok || response.headers.get('content-encoding')) return;
    const cache = await caches.open(this.name);
    const stored = await cache.match(manifestUrl(this.dataUrl));
    if (!stored) return;
    const manifest = await readManifest(stored, manifestUrl(this.dataUrl));
    const path = url.split(/[?#]/)[0];
    const artifact = manifestArtifacts(manifest).find((a) => resolveDataUrl(this.dataUrl, a.file) === path);
    if (!artifact) return;
    const bytes = new Uint8Array(await response.arrayBuffer());
    try {
      await verifyArtifact(bytes, artifact);
    } catch {
      return;
    }
    await cache.put(path, new Response(bytes, { status: 200, headers: keptHeaders(response, bytes.length) }));
  }

  /** True for URLs this cache may answer: files directly under the data directory. */
  owns(url: URL): boolean {
    const base = new URL(resolveDataUrl(this.dataUrl, ''));
    return url.origin === base.origin && url.pathname.startsWith(base.pathname) && !url.pathname.slice(base.pathname.length).includes('/');
  }

  /** Drop the datasets of older versions (after this version took over). */
  async removeOthers(): Promise<void> {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== this.name) await caches.delete(key);
    }
  }

  /** The file checked against the manifest (size, sha256, no Content-Encoding: docs/decisions/0302), ready to store. */
  private async fetchVerified(url: string, cache: RequestCache, artifact: DatasetArtifact): Promise<Response> {
    const response = await fetch(url, { cache });
    const bytes = await readArtifact(response, url, artifact);
    return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers: keptHeaders(response, bytes.length) });
  }
}

function keptHeaders(response: Response, length: number): Headers {
  const headers = new Headers({ 'content-length': String(length) });
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
}
