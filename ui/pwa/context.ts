import { createContext } from '@lit/context';
import type { PwaStore } from './state.ts';

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

/** The PWA controller, provided by the app shell to the chrome below it (like the DB client). */
export const pwaContext = createContext<PwaController | null>(Symbol('pwa-controller'));
