/**
 * Messages between a page and the service worker that are not part of the relay protocol: the
 * update flow's skip-waiting (the exact message workbox-window's `messageSkipWaiting()` sends) and a
 * diagnostic of who answered the API requests (relay to a window's DB worker, or the service worker).
 */

/**
 * A path (under the service worker's scope) it answers at once with a constant: the cost of any answer
 * from a service worker (the browser's interception, the body back to the page), which the measurements
 * of the relay compare against (scripts/measure-pwa.ts, docs/decisions/0405).
 */
export const FLOOR_PATH = 'sw-floor';
export const FLOOR_BODY = '{"floor":true}';
/** relay: a window's DB worker; service-worker: the engine here; early: answered from the route alone (404, 405, preflight). */
export type ServedBy = 'relay' | 'service-worker' | 'early';

/** `dialect-changed`: the API console changed the answer dialect setting (adapters/browser/dialect-setting.ts). */
export type PwaQuery = { type: 'SKIP_WAITING' } | { type: 'served-by' } | { type: 'dialect-changed' };

export type PwaAnswer = { type: 'served-by'; counts: Record<ServedBy, number> };

export function isPwaQuery(value: unknown): value is PwaQuery {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'SKIP_WAITING' || type === 'served-by' || type === 'dialect-changed';
}
