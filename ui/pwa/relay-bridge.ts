import type { DbClient } from '../api/db-client.ts';
import { RELAY_PROTOCOL, type ServiceWorkerToWindow, type WindowToServiceWorker } from '../../adapters/browser/relay-protocol.ts';

/** The part of the DB client the relay needs. */
export type RelayHost = Pick<DbClient, 'servePort' | 'status' | 'onProgress'> & Partial<Pick<DbClient, 'onRecovery'>>;

function isRelayPort(data: unknown): data is ServiceWorkerToWindow {
  const m = data as ServiceWorkerToWindow | null;
  return !!m && m.type === 'relay-port' && m.v === RELAY_PROTOCOL;
}

/**
 * The window's half of the relay: ports the service worker sends go straight to the DB worker, which
 * answers API requests on them (one copy of the data). The window tells the service worker it can serve
 * (`db-ready`) whenever a service worker starts controlling it, and says when the data changed.
 */
export function startRelayBridge(db: RelayHost, container: ServiceWorkerContainer = navigator.serviceWorker): () => void {
  let announced: string | null = null;

  const post = (message: WindowToServiceWorker) => container.controller?.postMessage(message);
  const announce = async () => {
    const version = (await db.status().catch(() => null))?.version ?? '';
    if (announced !== null && announced !== version) post({ type: 'dataset-changed', v: RELAY_PROTOCOL, version });
    announced = version;
    post({ type: 'db-ready', v: RELAY_PROTOCOL, version });
  };

  const onMessage = (event: MessageEvent) => {
    const port = event.ports[0];
    if (isRelayPort(event.data) && port) db.servePort(port);
  };
  const onControllerChange = () => void announce();

  container.addEventListener('message', onMessage);
  container.addEventListener('controllerchange', onControllerChange);
  // Messages sent before the listener existed are queued until this call.
  container.startMessages();
  const stopProgress = db.onProgress((progress) => {
    if (progress.phase === 'ready') void announce();
  });
  // A replaced DB worker took the service worker's ports with it: have it drop them and ask again.
  const stopRecovery = db.onRecovery?.((recovery) => {
    if (recovery.phase !== 'restarting') return;
    post({ type: 'dataset-changed', v: RELAY_PROTOCOL, version: announced ?? '' });
    post({ type: 'db-ready', v: RELAY_PROTOCOL, version: announced ?? '' });
  });
  void announce();

  return () => {
    stopRecovery?.();
    container.removeEventListener('message', onMessage);
    container.removeEventListener('controllerchange', onControllerChange);
    stopProgress();
  };
}
