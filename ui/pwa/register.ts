import { Workbox } from 'workbox-window';
import { PwaStore } from './state.ts';
import { InstallPrompt } from './install-prompt.ts';
import { startRelayBridge, type RelayHost } from './relay-bridge.ts';
import type { PwaController } from './context.ts';
import { dataCacheName } from '../../adapters/browser/data-cache.ts';
import { manifestUrl } from '../../dataset/artifact/manifest.ts';
import { keptDataGoneSince, rememberDataKept } from './kept-marker.ts';

export type { PwaController } from './context.ts';

/**
 * Registers the service worker (production builds only: the dev server has no sw.js), bridges its relay
 * to the DB worker, asks for persistent storage once the data is first kept, tells when kept data is gone, and
 * tracks install and update offers.
 */
export function registerPwa(options: { db: RelayHost; swUrl?: string }): PwaController {
  const store = new PwaStore();
  const installer = new InstallPrompt((installAvailable) => store.set({ installAvailable }));
  let workbox: Workbox | null = null;

  const controller: PwaController = {
    store,
    install: () => installer.prompt(),
    applyUpdate() {
      if (!workbox) return;
      // Reload once the new version controls the page, so page and service worker are the same build.
      workbox.addEventListener('controlling', () => window.location.reload());
      workbox.messageSkipWaiting();
    },
    async checkForUpdate() {
      await workbox?.update();
    },
  };
  void readPersistence(store);
  // Before the DB worker has kept anything of this opening: what is missing now was deleted.
  void keptDataGoneSince().then((since) => since && store.set({ dataGoneSince: since }));

  // Vite's dev server (the only place with `import.meta.hot`) has no sw.js. Not `import.meta.env.DEV`: a
  // build made where NODE_ENV is not "production" (vitest's global setup) sets it, and must still register.
  const devServer = !!import.meta.hot;
  if (!('serviceWorker' in navigator) || devServer) {
    store.set({ error: devServer ? 'no service worker on the dev server' : 'this browser has no service workers' });
    return controller;
  }
  startRelayBridge(options.db);
  workbox = new Workbox(options.swUrl ?? `${import.meta.env.BASE_URL}sw.js`);
  workbox.addEventListener('waiting', () => store.set({ updateWaiting: true }));
  // Offline ready: the service worker is active and every dataset file is kept for it. On a first visit the
  // service worker takes the page before the data has arrived (the APIs answer for each dataset as it comes),
  // so the data is checked after each completed load too.
  let active = false;
  let askedPersistence = false;
  const update = async () => {
    const offlineReady = active && (await dataKept(options.db));
    store.set({ offlineReady });
    if (!offlineReady) return;
    rememberDataKept();
    if (!askedPersistence) {
      askedPersistence = true;
      void askPersistence(store);
    }
  };
  options.db.onProgress((progress) => {
    if (progress.phase === 'ready' && progress.dataset === null) void update();
  });
  workbox
    .register()
    .then(() => workbox!.active)
    .then(() => {
      active = true;
      return update();
    })
    .catch((error: unknown) => store.set({ error: error instanceof Error ? error.message : String(error) }));
  return controller;
}

/** Whether the data cache of the loaded datasets' version is complete (its manifest is written last). */
async function dataKept(db: RelayHost): Promise<boolean> {
  try {
    const { version, dataUrl } = await db.status();
    if (!version || !dataUrl || !(await caches.has(dataCacheName(version)))) return false;
    return !!(await (await caches.open(dataCacheName(version))).match(manifestUrl(dataUrl)));
  } catch {
    return false;
  }
}

/** Whether the storage is persistent already, without asking (asking may show a prompt: Firefox). */
async function readPersistence(store: PwaStore): Promise<void> {
  try {
    if (navigator.storage?.persisted) store.set({ persisted: await navigator.storage.persisted() });
  } catch {
    // Left unknown.
  }
}

/**
 * Asked when the data is first kept, not on opening: the prompt (Firefox) then comes with something worth keeping.
 * Browsers may grant persistence silently (installed apps, site engagement) or refuse; Safari's engine may not have
 * the API at all (WebKitGTK ships it off), and says nothing then.
 */
async function askPersistence(store: PwaStore): Promise<void> {
  const storage = navigator.storage;
  if (!storage?.persist) return;
  try {
    store.set({ persisted: (await storage.persisted()) || (await storage.persist()) });
  } catch {
    store.set({ persisted: false });
  }
}
