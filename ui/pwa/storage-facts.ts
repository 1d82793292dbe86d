import { findPlace, type KeptFilesKind, type KeptFilesScope } from '../../adapters/browser/kept-files.ts';

/** What this browser does with the data the app keeps, as the Datasets page tells it. */
export interface StorageFacts {
  /** Where the unpacked databases and a cut download's chunks are kept (adapters/browser/kept-files.ts). */
  keptIn: KeptFilesKind;
  /** Bytes this site uses and may use (`navigator.storage.estimate()`), or null where the browser does not say. */
  usage: number | null;
  quota: number | null;
  /** Whether the browser has made this site's storage persistent, or null where it does not say. */
  persisted: boolean | null;
  /** Safari's engine: everything the site keeps goes after 7 days of use without a visit, unless the app is installed. */
  sevenDayRule: boolean;
  /** The app runs installed (Safari's Add to Dock or Add to Home Screen, an installed app elsewhere). */
  installed: boolean;
}

/**
 * Safari's engine by its user agent: AppleWebKit without Chromium's marks (every browser on an iPhone or iPad is
 * Safari's engine, and its storage rules hold there too).
 */
export function isSafariEngine(userAgent: string): boolean {
  return /AppleWebKit/.test(userAgent) && !/Chrome\/|Chromium\/|Edg\//.test(userAgent);
}

export async function storageFacts(): Promise<StorageFacts> {
  const storage = navigator.storage as Partial<StorageManager> | undefined;
  const [place, estimate, persisted] = await Promise.all([
    findPlace(globalThis as KeptFilesScope),
    storage?.estimate?.().catch(() => null) ?? null,
    storage?.persisted?.().catch(() => null) ?? null,
  ]);
  return {
    keptIn: place.kind,
    usage: estimate?.usage ?? null,
    quota: estimate?.quota ?? null,
    persisted,
    sevenDayRule: isSafariEngine(navigator.userAgent),
    installed: matchMedia('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true,
  };
}
