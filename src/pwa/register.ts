import { Workbox } from 'workbox-window';
import { PwaStore } from './state.ts';
import { InstallPrompt } from './install-prompt.ts';
import { startRelayBridge, type RelayHost } from './relay-bridge.ts';
import './components/index.ts';

/** What the PWA chrome components drive: the state they show and the two user actions. */
export interface PwaController {
  readonly store: PwaStore;
  /** Show the browser's install dialog (only after it offered one). */
  install(): Promise<'accepted' | 'dismissed' | 'unavailable'>;
  /** Activate the waiting version; the page reloads once it controls the page. */
  applyUpdate(): void;
  /** Ask the server for a new service worker now (the browser also checks on navigation). */
  checkForUpdate(): Promise<void>;
}

let current: PwaController | null = null;

/** Fired on window once registerPwa made its controller, for components that were placed before it ran. */
export const PWA_REGISTERED = 'pwa-registered';

/** The controller registerPwa made, for components the shell placed without passing one. */
export function currentPwa(): PwaController | null {
  return current;
}

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
  current = controller;
  window.dispatchEvent(new Event(PWA_REGISTERED));
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
  workbox.addEventListener('waiting', () => {
    store.set({ updateWaiting: true });
    ensureUpdatePrompt();
  });
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

/** The update prompt is a toast: if the shell did not place one, it goes at the end of the body. */
function ensureUpdatePrompt(): void {
  if (!document.querySelector('pwa-update-prompt')) document.body.append(document.createElement('pwa-update-prompt'));
}
