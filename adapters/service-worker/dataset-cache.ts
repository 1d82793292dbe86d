import { MANIFEST_FILE, sha256Hex, type Manifest } from '../../dataset/artifact.ts';
import { manifestArtifacts, resolveDataUrl } from '../../dataset/manifest.ts';

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

  /** Download what is missing, check each file's sha256, and store the manifest last (it marks a complete set). */
  async install(): Promise<void> {
    if (!this.version) return;
    const cache = await caches.open(this.name);
    const manifestUrl = resolveDataUrl(this.dataUrl, MANIFEST_FILE);
    if (await cache.match(manifestUrl)) return;
    const manifestResponse = await fetch(manifestUrl, { cache: 'no-cache' });
    if (!manifestResponse.ok) throw new Error(`${manifestUrl}: HTTP ${manifestResponse.status}`);
    const manifest = (await manifestResponse.clone().json()) as Manifest;
    // The server now holds another build than this service worker's: fail, the browser retries later.
    if (manifest.version !== this.version) throw new Error(`server has datasets ${manifest.version}, this version expects ${this.version}`);
    for (const artifact of manifestArtifacts(manifest)) {
      const url = resolveDataUrl(this.dataUrl, artifact.file);
      const stored = await cache.match(url);
      if (stored) continue;
      let response = await this.fetchVerified(url, 'default', artifact.sha256);
      // A stale copy in the HTTP cache: go to the server.
      response ??= await this.fetchVerified(url, 'reload', artifact.sha256);
      if (!response) throw new Error(`${url}: sha256 does not match the manifest`);
      await cache.put(url, response);
    }
    await cache.put(manifestUrl, manifestResponse);
  }

  /** A stored file, only once the set is complete. */
  async match(url: string): Promise<Response | undefined> {
    if (!this.version) return undefined;
    const cache = await caches.open(this.name);
    if (!(await cache.match(resolveDataUrl(this.dataUrl, MANIFEST_FILE)))) return undefined;
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
    const manifestResponse = await cache.match(resolveDataUrl(this.dataUrl, MANIFEST_FILE));
    if (!manifestResponse) return;
    const manifest = (await manifestResponse.json()) as Manifest;
    const path = url.split(/[?#]/)[0];
    const artifact = manifestArtifacts(manifest).find((a) => resolveDataUrl(this.dataUrl, a.file) === path);
    if (!artifact) return;
    const bytes = new Uint8Array(await response.arrayBuffer());
    if ((await sha256Hex(bytes)) !== artifact.sha256) return;
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

  private async fetchVerified(url: string, cache: RequestCache, sha256: string): Promise<Response | null> {
    const response = await fetch(url, { cache });
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const encoding = response.headers.get('content-encoding');
    if (encoding) {
      // The browser unpacked the file on the way: its sha256 cannot be checked (docs/decisions/0302).
      throw new Error(`${url}: sent with Content-Encoding: ${encoding}; serve .gz dataset files as application/gzip without it`);
    }
    if ((await sha256Hex(bytes)) !== sha256) return null;
    return new Response(bytes, { status: 200, headers: keptHeaders(response, bytes.length) });
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
