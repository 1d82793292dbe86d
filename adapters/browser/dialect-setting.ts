/**
 * The app's answer dialect setting (engine/dialect/dialect.ts), kept where both the page and the service worker
 * read it: one entry of Cache Storage, which survives a restart of either. The API console writes it; the
 * service worker answers every API request of the origin in it (a prototype's `fetch()` included).
 */
import { DEFAULT_DIALECT, isDialect, type Dialect } from '../../engine/dialect/dialect.ts';

export const SETTINGS_CACHE = 'offline-gov-settings';
/** The entry's key: a path no API and no file of the app has. */
const KEY = '/.settings/answer-dialect';

function keyUrl(origin: string): string {
  return new URL(KEY, origin).href;
}

/** The dialect set on this origin; the default when none was set or storage cannot be read. */
export async function readDialect(origin: string, storage: CacheStorage = caches): Promise<Dialect> {
  try {
    const cache = await storage.open(SETTINGS_CACHE);
    const stored = (await (await cache.match(keyUrl(origin)))?.text())?.trim();
    return isDialect(stored) ? stored : DEFAULT_DIALECT;
  } catch {
    return DEFAULT_DIALECT;
  }
}

export async function writeDialect(origin: string, dialect: Dialect, storage: CacheStorage = caches): Promise<void> {
  const cache = await storage.open(SETTINGS_CACHE);
  await cache.put(keyUrl(origin), new Response(dialect, { headers: { 'content-type': 'text/plain' } }));
}
