/**
 * How the service worker keeps the pages of the origin that are not the app's own (a prototype's page beside the
 * build, a folder `serve --pages` hosts) and the files they load: the network first, so an edited page is seen at
 * once, and a copy of each answer kept, so a page opened once keeps working offline. The app's own files are the
 * precache's; this is only for what the build did not ship.
 */
import { NetworkFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';

export const PAGES_CACHE = 'offline-gov-api-pages';

/** A slow network is given this long before the kept copy answers instead (offline, the fetch fails at once). */
const NETWORK_TIMEOUT_SECONDS = 4;
/** The kept files, least recently used dropped first: a prototype's pages are tens of files, not thousands. */
const MAX_KEPT = 500;

export function ownPages(): NetworkFirst {
  return new NetworkFirst({
    cacheName: PAGES_CACHE,
    networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
    // Only complete answers are kept (Workbox's default: status 200), never a 404 or a range.
    plugins: [new ExpirationPlugin({ maxEntries: MAX_KEPT })],
  });
}
