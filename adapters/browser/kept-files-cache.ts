/**
 * Kept files in Cache Storage (docs/decisions/1200), where the origin-private file system is missing or refused
 * (WebKitGTK; WebKit's automated and private windows): one entry per file, under a URL of its own that no request
 * of the app's ever asks for. A put replaces an entry whole, so a reader never sees half of a file. Typed by its
 * shape, not by kept-files.ts's interface, which imports it.
 */

/** The cache that stands in for the origin-private file system (one for every directory). */
export const KEPT_FILES_CACHE = 'offline-gov-api-kept-files';
/** An origin that is never fetched (a reserved name): the entries' URLs say only which file they hold. */
const KEPT_FILES_ORIGIN = 'https://kept-files.invalid/';

/** The URL a kept file is stored under. */
export function keptFileUrl(directory: string, name: string): string {
  return `${KEPT_FILES_ORIGIN}${directory}/${encodeURIComponent(name)}`;
}

/**
 * The files of one directory. The cache is opened for each call, not held: a cache deleted meanwhile (the browser's
 * deletion of a site's data, or the Datasets page's reset) is made again, not written to where no one reads.
 */
export function cacheFiles(caches: Pick<CacheStorage, 'open'>, directory: string) {
  const prefix = keptFileUrl(directory, '');
  const open = () => caches.open(KEPT_FILES_CACHE);
  return {
    kind: async () => 'cache' as const,
    names: async () =>
      (await (await open()).keys())
        .map((request) => request.url)
        .filter((url) => url.startsWith(prefix))
        .map((url) => decodeURIComponent(url.slice(prefix.length))),
    async read(file: string, { size = null }: { size?: number | null } = {}): Promise<Uint8Array | null> {
      const response = await (await open()).match(keptFileUrl(directory, file));
      if (!response) return null;
      const length = response.headers.get('content-length');
      if (size !== null && length !== null && Number(length) !== size) return null;
      const bytes = new Uint8Array(await response.arrayBuffer());
      return size === null || bytes.length === size ? bytes : null;
    },
    async write(file: string, data: Uint8Array | string): Promise<void> {
      const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
      await (
        await open()
      ).put(keptFileUrl(directory, file), new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-length': String(bytes.length) } }));
    },
    async remove(file: string): Promise<void> {
      await (await open()).delete(keptFileUrl(directory, file));
    },
  };
}
