/// <reference lib="webworker" />
/**
 * The service worker: precaches the app and the sql.js wasm (Workbox) and caches both datasets at install
 * (its own step, docs/decisions/0401), answers every request to an API path from the local engine (relayed
 * to an app window's DB worker when one can answer, else run here over the cached files; 0402), and serves
 * the app shell offline. Everything else passes through.
 */
import { addPlugins, cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { reusePageCopies } from './precache-reuse.ts';
import { registerRoute, setCatchHandler } from 'workbox-routing';
import { ownPages } from './own-pages.ts';
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import { RELAY_PROTOCOL, type WindowToServiceWorker } from '../browser/relay-protocol.ts';
import { inAppDialect, toApiRequest } from './api-http.ts';
import { readDialect } from '../browser/dialect-setting.ts';
import { OPENAPI_FILES } from '../../engine/openapi/documents.ts';
import { inProductionDialect } from '../../engine/openapi/production.ts';
import { toFetchResponse } from '../http/fetch-response.ts';
import { APIS } from '../../engine/index.ts';
import { failed, route } from '../../engine/http/route.ts';
import { mountAt } from '../../engine/http/mount.ts';
import { RelayClient } from './relay-client.ts';
import { LocalEngine } from './local-engine.ts';
import { DatasetCache } from './dataset-cache.ts';
import { FLOOR_BODY, FLOOR_PATH, isPwaQuery, type PwaAnswer, type ServedBy } from './messages.ts';
import { onActiveChanged } from '../browser/active-channel.ts';
import { activeImportedDatabase, keptAttachmentDatabase } from './imported-dataset.ts';
import { browserPlaces } from '../browser/places.ts';
import { dataCacheFiles } from '../browser/data-cache.ts';
import { manifestUrl } from '../../dataset/artifact/manifest.ts';
import { brotliWasmUrl, browserBrotliSync } from '../browser/brotli.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };
/** The manifest version of the datasets this build serves; set by the build (tools/vite-plugin-service-worker.ts). */
declare const __DATASET_VERSION__: string;

const scope = self.registration.scope;
const appShell = new URL('index.html', scope).href;
/**
 * The deployment's base path, where this worker is served (`/apps/gov` for a build made with `BASE=/apps/gov/`):
 * the APIs are answered below it, and the origin's other paths are left alone.
 */
const mount = mountAt(new URL(scope).pathname);

/** Pages that run the app (and so own a DB worker): the shell, whatever its hash route. */
function runsApp(url: string): boolean {
  const { pathname } = new URL(url);
  const root = new URL(scope).pathname;
  return pathname === root || pathname === `${root}index.html`;
}

const relay = new RelayClient({
  async windows() {
    const found = await self.clients.matchAll({ type: 'window', includeUncontrolled: false });
    return found.map((client) => ({ id: client.id, url: client.url, postMessage: (m: unknown, t: Transferable[]) => client.postMessage(m, t) }));
  },
  runsApp,
});

const datasets = new DatasetCache(__DATASET_VERSION__, new URL('data/', scope).href);

const local = new LocalEngine({
  dataUrl: new URL('data/', scope).href,
  wasmUrl: new URL(wasmUrl, scope).href,
  read: async (url, init) => (await datasets.match(url)) ?? (await matchPrecache(url)) ?? fetch(url, init).catch(() => undefined),
  imported: activeImportedDatabase,
  attachment: keptAttachmentDatabase,
  // Its wasm from the precache: the worker's own fetch of it would fail offline.
  brotli: () => {
    const wasm = new URL(brotliWasmUrl, scope).href;
    return browserBrotliSync(async () => (await matchPrecache(wasm)) ?? fetch(wasm));
  },
  ...browserPlaces(),
  files: (version) => dataCacheFiles(version),
});

// The app's DB worker switched the active dataset (an import, a choice, a deletion): reopen on the next request.
onActiveChanged(() => local.reset());

// The datasets are on the machine once install completes (Workbox precaches the rest in its own install step).
self.addEventListener('install', (event) => {
  event.waitUntil(datasets.install());
});

// The floor of any answer from here (a diagnostic for the measurements): a constant, at once, before any other work.
const floorUrl = new URL(FLOOR_PATH, scope).href;
self.addEventListener('fetch', (event) => {
  if (event.request.url !== floorUrl) return;
  event.respondWith(new Response(FLOOR_BODY, { headers: { 'content-type': 'application/json' } }));
});

// The dataset manifest from this version's cache (offline, and the version this service worker serves); a
// reload the user asked for (the dataset panel's reset) goes to the server first. The dataset files themselves
// pass through: the DB worker reads the data cache itself and downloads only what is missing, resumably
// (docs/decisions/0406), and the verified copy it keeps there is what this worker's engine reads.
const manifestHref = manifestUrl(new URL('data/', scope).href);
self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'GET' || event.request.url.split(/[?#]/)[0] !== manifestHref) return;
  event.respondWith(
    (async () => {
      if (event.request.cache === 'reload') {
        try {
          return await fetch(event.request);
        } catch {
          return (await datasets.match(manifestHref)) ?? Response.error();
        }
      }
      return (await datasets.match(manifestHref)) ?? fetch(event.request);
    })(),
  );
});

/** The app's answer dialect setting, read once and again after the console changes it. */
let dialect = readDialect(self.location.origin);

// The app's OpenAPI files in the dialect set: in production's, made from the precached interface files (the same
// step as the Node server's documents), so what the console links to describes what the APIs answer.
const documentUrls = new Set(Object.keys(OPENAPI_FILES).map((path) => new URL(path.slice(1), scope).href));
self.addEventListener('fetch', (event) => {
  const url = event.request.url.split(/[?#]/)[0];
  if (event.request.method !== 'GET' || !documentUrls.has(url)) return;
  event.respondWith(
    (async () => {
      const file = (await matchPrecache(url)) ?? (await fetch(event.request));
      if ((await dialect) !== 'production' || !file.ok) return file;
      const body = JSON.stringify(inProductionDialect(await file.json()));
      return new Response(body, { status: file.status, headers: file.headers });
    })(),
  );
});

/** Who answered the API requests so far: a diagnostic the tests and the note read. */
const served: Record<ServedBy, number> = { relay: 0, 'service-worker': 0, early: 0 };

/** The requests answered as API requests: Workbox's navigation route leaves them alone. */
const apiRequests = new WeakSet<Request>();

// API paths first, for every method. The request is routed here, once (engine/http/route.ts): what needs no
// data (a 404, 405, preflight) is answered at once, the rest by the window's DB worker over the relay, or by
// the engine here. This listener is registered before Workbox's.
const ownOrigin = `${self.location.origin}/`;
self.addEventListener('fetch', (event) => {
  if (!event.request.url.startsWith(ownOrigin)) return;
  const request = toApiRequest(event.request);
  const routed = route(APIS, request, mount);
  if (!routed) return;
  apiRequests.add(event.request);
  if (routed.kind === 'early') {
    served.early++;
    event.respondWith(toFetchResponse(routed.response));
    return;
  }
  event.respondWith(
    (async () => {
      try {
        const asked = inAppDialect(routed, await dialect);
        const relayed = await relay.relay(asked, event.clientId);
        if (relayed) {
          served.relay++;
          return toFetchResponse(relayed);
        }
        served['service-worker']++;
        return toFetchResponse(await local.answer(asked));
      } catch (error) {
        console.error('service worker: cannot answer', request.method, request.url, error);
        return toFetchResponse(failed(APIS, routed, 'internal'));
      }
    })(),
  );
});

self.addEventListener('message', (event) => {
  const data = event.data as WindowToServiceWorker | unknown;
  const source = event.source as Client | null;
  if (isWindowMessage(data)) {
    if (data.type === 'db-ready' && source) relay.markReady(source.id);
    if (data.type === 'dataset-changed') {
      relay.reset();
      local.reset();
    }
    return;
  }
  if (isPwaQuery(data)) {
    if (data.type === 'SKIP_WAITING') void self.skipWaiting();
    if (data.type === 'dialect-changed') dialect = readDialect(self.location.origin);
    if (data.type === 'served-by') event.ports[0]?.postMessage({ type: 'served-by', counts: { ...served } } satisfies PwaAnswer);
  }
});

function isWindowMessage(data: unknown): data is WindowToServiceWorker {
  const m = data as WindowToServiceWorker | null;
  return !!m && m.v === RELAY_PROTOCOL && (m.type === 'db-ready' || m.type === 'dataset-changed');
}

// The worker, the wasm files and the app the page loaded moments ago are taken from the HTTP cache, not sent again.
const precached = self.__WB_MANIFEST; // named once: workbox-build writes the list at its only mention
addPlugins([reusePageCopies(precached, self.location.href)]);
precacheAndRoute(precached);
cleanupOutdatedCaches();

// Everything else of the origin's that a page of the app's path asks for (a prototype's own page, its script, its
// styles; docs/deploy.md#your-own-pages): from the network while there is one, and kept, so a page opened once keeps
// working offline. The datasets are the DB worker's to fetch and keep (0406), and the requests answered above
// are not Workbox's.
const dataHref = new URL('data/', scope).href;
registerRoute(
  ({ request, url }) =>
    request.method === 'GET' &&
    url.origin === self.location.origin &&
    !apiRequests.has(request) &&
    !url.href.startsWith(dataHref) &&
    url.href !== floorUrl &&
    !documentUrls.has(url.href),
  ownPages(),
);

// A navigation neither the network nor the kept pages can answer (offline, a deep link never opened) gets the app
// shell, as a reload of the app does; other requests fail as they would without this worker.
setCatchHandler(async ({ request, url }) =>
  request.mode === 'navigate' && !/\.[a-z0-9]+$/i.test(url.pathname) ? ((await matchPrecache(appShell)) ?? Response.error()) : Response.error(),
);

// The new version waits until the user says "reload" (workbox-window's messageSkipWaiting); once active,
// it takes the open pages so they talk to the version that matches the files they are about to load.
self.addEventListener('activate', (event) => {
  event.waitUntil(Promise.all([self.clients.claim(), datasets.removeOthers()]));
});
