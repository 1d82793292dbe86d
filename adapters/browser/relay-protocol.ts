import type { RoutedToData } from '../../engine/http/route.ts';

/**
 * The relay between the service worker and the window's DB worker. The service worker hands a window a
 * MessagePort; the window passes it on to its DB worker, which answers API requests on it directly, so
 * there is one copy of the data in memory. Messages carry a protocol version so an old worker and a new
 * service worker (mid-update) refuse each other cleanly instead of misreading.
 */
export const RELAY_PROTOCOL = 3;

/**
 * The engine's answer with its body as UTF-8 bytes, transferred (not copied) from the DB worker: what the
 * relay answers (the service worker hands the bytes to its Response as they are, with no string to clone
 * or encode again) and the page's `getBinary` (the CSV export).
 */
export interface BinaryResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** A request the service worker has routed (engine/http/route.ts): the DB worker answers it without routing again. */
export interface RelayRequest {
  v: typeof RELAY_PROTOCOL;
  id: number;
  routed: RoutedToData;
}

export interface RelayResponse {
  v: typeof RELAY_PROTOCOL;
  id: number;
  response: BinaryResponse;
}

/** Messages between a window and the service worker (postMessage on the controller / client). */
export type WindowToServiceWorker =
  /** The window's DB worker has its datasets open and can serve a relay port. */
  | { type: 'db-ready'; v: typeof RELAY_PROTOCOL; version: string }
  /** The active dataset changed (import, reset): drop cached answers and ports. */
  | { type: 'dataset-changed'; v: typeof RELAY_PROTOCOL; version: string };

export type ServiceWorkerToWindow =
  /** Sent with a transferred MessagePort: pass it to the DB worker's `servePort`. */
  { type: 'relay-port'; v: typeof RELAY_PROTOCOL };

export function isRelayRequest(value: unknown): value is RelayRequest {
  const v = value as RelayRequest | null;
  return !!v && v.v === RELAY_PROTOCOL && typeof v.id === 'number' && v.routed?.kind === 'route' && typeof v.routed.request?.url === 'string';
}

export function isRelayResponse(value: unknown): value is RelayResponse {
  const v = value as RelayResponse | null;
  return (
    !!v && v.v === RELAY_PROTOCOL && typeof v.id === 'number' && !!v.response && typeof v.response.status === 'number' && v.response.body instanceof Uint8Array
  );
}
