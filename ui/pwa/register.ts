import { Workbox } from 'workbox-window';
import { PwaStore } from './state.ts';
import { InstallPrompt } from './install-prompt.ts';
import { startRelayBridge, type RelayHost } from './relay-bridge.ts';
import type { PwaController } from './context.ts';

export type { PwaController } from './context.ts';

/**
 * Registers the service worker (production builds only: the dev server has no sw.js), bridges its relay
 * to the DB worker, asks for persistent storage, and tracks install and update offers.
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
  void askPersistence(store);

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
  workbox
    .register()
    .then(() => workbox!.active)
    .then(() => store.set({ offlineReady: true }))
    .catch((error: unknown) => store.set({ error: error instanceof Error ? error.message : String(error) }));
  return controller;
}

/** Ask once; browsers may grant persistence silently (installed apps, site engagement) or refuse. */
async function askPersistence(store: PwaStore): Promise<void> {
  const storage = navigator.storage;
  if (!storage?.persist) return;
  try {
    const persisted = (await storage.persisted()) || (await storage.persist());
    store.set({ persisted });
  } catch {
    store.set({ persisted: false });
  }
}
