import { DATA_CACHE_PREFIX } from '../../adapters/browser/data-cache.ts';

/** Set once the data is first kept for offline use (its date); the data's absence later means it was deleted. */
const KEPT_KEY = 'offline-gov-api:data-kept-since';

/** The data is kept on this machine now (the first time, the date is remembered). */
export function rememberDataKept(): void {
  try {
    if (!localStorage.getItem(KEPT_KEY)) localStorage.setItem(KEPT_KEY, new Date().toISOString());
  } catch {
    // No local storage here (a private window may refuse it): nothing to compare with later.
  }
}

/**
 * When the data kept since a date is no longer here (no data cache of any version: not an update, which fills the
 * new version's before it drops the old one's), that date; else null. The marker then goes: the data is being
 * downloaded again and will be remembered afresh. A browser that deletes everything (Safari's 7-day rule takes
 * local storage too) leaves nothing to compare with: that opening looks like a first visit.
 */
export async function keptDataGoneSince(): Promise<string | null> {
  try {
    const since = localStorage.getItem(KEPT_KEY);
    if (!since || !globalThis.caches) return null;
    if ((await caches.keys()).some((name) => name.startsWith(DATA_CACHE_PREFIX))) return null;
    localStorage.removeItem(KEPT_KEY);
    return since;
  } catch {
    return null;
  }
}
