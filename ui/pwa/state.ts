/** What the PWA chrome shows: each field is one indicator or control. */
export interface PwaState {
  /** A service worker is active in this scope and the app shell, the wasm and every dataset file are kept on this machine. */
  offlineReady: boolean;
  /** A new version is installed and waiting for the user's word. */
  updateWaiting: boolean;
  /** The browser offered installation (beforeinstallprompt) and the app is not installed yet. */
  installAvailable: boolean;
  /**
   * Whether this site's storage is persistent (`navigator.storage.persisted()`, then `persist()` once the data is
   * first kept): null until known, or where the browser has no such API.
   */
  persisted: boolean | null;
  /** The data kept on this machine since this date is gone (the browser deleted it) and is downloaded again; else null. */
  dataGoneSince: string | null;
  /** Why registration failed, when it did (shown instead of "offline ready"). */
  error: string | null;
}

export const INITIAL_STATE: PwaState = {
  offlineReady: false,
  updateWaiting: false,
  installAvailable: false,
  persisted: null,
  dataGoneSince: null,
  error: null,
};

/** A small observable store: components subscribe, the controller writes. */
export class PwaStore extends EventTarget {
  private value: PwaState = INITIAL_STATE;

  get state(): PwaState {
    return this.value;
  }

  set(patch: Partial<PwaState>): void {
    this.value = { ...this.value, ...patch };
    this.dispatchEvent(new Event('change'));
  }

  subscribe(listener: (state: PwaState) => void): () => void {
    const handler = () => listener(this.value);
    this.addEventListener('change', handler);
    listener(this.value);
    return () => this.removeEventListener('change', handler);
  }
}
