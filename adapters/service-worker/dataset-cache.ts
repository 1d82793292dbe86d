import { manifestArtifacts, manifestUrl, readManifest } from '../../dataset/artifact/manifest.ts';
import { acquireArtifact, type AcquireOptions } from '../../dataset/artifact/acquire.ts';
import { DATA_CACHE_PREFIX, dataCacheFiles, dataCacheName } from '../browser/data-cache.ts';
import { browserPlaces } from '../browser/places.ts';
import { decodable } from '../../dataset/artifact/unpack.ts';
import type { DatasetName } from '../../engine/http/types.ts';

/**
 * The datasets on this machine, one cache per dataset version (the version this service worker was built
 * with; adapters/browser/data-cache.ts). Not Workbox's precache: that fetches revisioned files with
 * `cache: 'reload'`, a second transfer of data the DB worker already downloaded. On a first install the app's
 * DB worker fills this cache as each file arrives (resumable, the first view's dataset first), so the
 * service worker takes the page at once and the APIs answer for each dataset as soon as it is here
 * (docs/decisions/0406). An update's install fills it itself by the road every context takes
 * (dataset/artifact/acquire.ts), so the new version starts with its data on the machine.
 */
export class DatasetCache {
  readonly name: string;

  constructor(
    readonly version: string,
    private readonly dataUrl: string,
  ) {
    this.name = dataCacheName(version);
  }

  /**
   * On an update (another version's data is on the machine): bring each file of the manifest by the one road,
   * and store the manifest last (it marks a complete set). On a first install: nothing (the app's DB worker
   * brings the data and fills the cache).
   */
  async install(): Promise<void> {
    const files = dataCacheFiles(this.version);
    if (!this.version || !files) return;
    const url = manifestUrl(this.dataUrl);
    if (await (await caches.open(this.name)).match(url)) return;
    const keys = await caches.keys();
    if (!keys.some((key) => key.startsWith(DATA_CACHE_PREFIX) && key !== this.name)) return;
    const manifest = await readManifest(await fetch(url, { cache: 'no-cache' }), url);
    // The server now holds another build than this service worker's: fail, the browser retries later.
    if (manifest.version !== this.version) throw new Error(`server has datasets ${manifest.version}, this version expects ${this.version}`);
    const places = { ...browserPlaces(), files };
    const unpacked = new Set<DatasetName>();
    for (const artifact of manifestArtifacts(manifest)) {
      // The one road (dataset/artifact/acquire.ts): what is kept unpacked here (as it is, or made from the older
      // file and a patch) stands for the file; a patched database not kept (storage full) is brought whole.
      const options: AcquireOptions = { ...places, fetch: (u, init) => fetch(u, init), dataUrl: this.dataUrl, artifact };
      let got = await acquireArtifact(options);
      if (got.how === 'patched' && !(await got.keep(artifact.rows))) got = await acquireArtifact({ ...options, patch: false });
      if (got.how === 'kept' || got.how === 'patched') unpacked.add(artifact.name);
    }
    await files.complete(manifest, this.dataUrl, decodable(places.decoders), unpacked);
  }

  /** A stored file, only once the set is complete. */
  async match(url: string): Promise<Response | undefined> {
    if (!this.version) return undefined;
    const cache = await caches.open(this.name);
    if (!(await cache.match(manifestUrl(this.dataUrl)))) return undefined;
    return cache.match(url, { ignoreSearch: true });
  }

  /** Drop the datasets of older versions (after this version took over). */
  async removeOthers(): Promise<void> {
    for (const key of await caches.keys()) {
      if (key.startsWith(DATA_CACHE_PREFIX) && key !== this.name) await caches.delete(key);
    }
  }
}
