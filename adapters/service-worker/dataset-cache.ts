import { manifestArtifacts, manifestUrl, readManifest, resolveDataUrl } from '../../dataset/artifact/manifest.ts';
import { obtainArtifact } from '../../dataset/artifact/obtain.ts';
import { DATA_CACHE_PREFIX, dataCacheFiles, dataCacheName } from '../browser/data-cache.ts';
import { opfsPartialStore } from '../browser/partial-opfs.ts';
import { webLock } from '../browser/download-lock.ts';
import { browserDecoders } from '../browser/brotli.ts';
import { decodable } from '../../dataset/artifact/unpack.ts';
import { transferArtifact } from '../../dataset/artifact/format.ts';
import { updateByPatch } from '../../dataset/artifact/patch-update.ts';
import { opfsUnpackedStore } from '../browser/unpacked-opfs.ts';
import type { DatasetName } from '../../engine/http/types.ts';

/**
 * The datasets on this machine, one cache per dataset version (the version this service worker was built
 * with; adapters/browser/data-cache.ts). Not Workbox's precache: that fetches revisioned files with
 * `cache: 'reload'`, a second transfer of data the DB worker already downloaded. On a first install the app's
 * DB worker fills this cache as each file arrives (resumable, the first view's dataset first), so the
 * service worker takes the page at once and the APIs answer for each dataset as soon as it is here
 * (docs/decisions/0406). An update's install fills it itself, under the same per-file locks and resumable
 * downloads, so the new version starts with its data on the machine.
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
   * On an update (another version's data is on the machine): download what is missing, resumably, check each
   * file against the manifest, and store the manifest last (it marks a complete set). A changed dataset whose
   * older file is kept unpacked here takes the build's patch instead when it is smaller (patch-update.ts): the
   * database it makes is checked and kept unpacked, as the DB worker opens it. On a first install: nothing
   * (the app's DB worker downloads the data and fills the cache).
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
    const partials = opfsPartialStore();
    const lock = webLock();
    const encodings = decodable(browserDecoders);
    const unpacked = opfsUnpackedStore();
    const patched = new Set<DatasetName>();
    const fetchFile = (u: string, init: RequestInit) => fetch(u, init);
    for (const artifact of manifestArtifacts(manifest)) {
      // The older file kept here and a patch, when the build made one and it is smaller: kept unpacked, as opened.
      const raw = await updateByPatch({ fetch: fetchFile, dataUrl: this.dataUrl, artifact, unpacked, decoders: browserDecoders, partials, lock });
      if (raw && unpacked) {
        // Kept, it stands for the file; not kept (storage full), the whole file is cached as without a patch.
        try {
          await unpacked.write(artifact, { raw, fileDate: null, rows: artifact.rows });
          patched.add(artifact.name);
          continue;
        } catch (error) {
          console.error(`service worker: cannot keep the patched ${artifact.name} dataset`, error);
        }
      }
      const file = transferArtifact(artifact, encodings);
      await obtainArtifact({ fetch: fetchFile, url: resolveDataUrl(this.dataUrl, file.file), artifact: file, partials, files, lock });
    }
    await files.complete(manifest, this.dataUrl, encodings, patched);
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
