import type { WorkboxPlugin } from 'workbox-core/types.js';

/** A precache manifest entry as workbox-build writes it: no revision when the URL carries its content's hash. */
export interface PrecacheEntry {
  url: string;
  revision: string | null;
}

/**
 * The precache takes the page's copy of a file whose URL names its content (Vite's hashed assets, written without a
 * revision, docs/decisions/0400): such a file is fetched `force-cache`, so the copy the page just loaded is taken
 * from the HTTP cache even when the host sent no caching header (neither fresh nor revalidatable, the default
 * mode would fetch it again). No stale copy can be wrong at a URL that changes with the content. A file with a
 * revision (the HTML, the manifest, the icons) keeps Workbox's `reload`: its URL stays, its content may not.
 */
export function reusePageCopies(entries: readonly PrecacheEntry[], base: string): WorkboxPlugin {
  const named = new Set(entries.filter((entry) => !entry.revision).map((entry) => new URL(entry.url, base).href));
  return {
    async requestWillFetch({ request }) {
      if (!named.has(request.url) || request.mode === 'navigate' || request.cache !== 'default') return request;
      return new Request(request, { cache: 'force-cache' });
    },
  };
}
