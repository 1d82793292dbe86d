import type { DatasetName } from '../../engine/http/types.ts';
import { DATASET_NAMES } from '../../engine/dataset-registry.ts';

/**
 * A change of the active dataset, broadcast on this origin: the other tabs' DB workers open the same one,
 * and the service worker drops the copy its own engine holds. (A stopped service worker needs no telling:
 * it reads the choice from IndexedDB when it next opens a dataset.)
 */
export const ACTIVE_CHANNEL = 'offline-gov-api-active-dataset';

export interface ActiveChanged {
  type?: 'active-changed';
  dataset: DatasetName;
  /** The import now active, or null for the build's dataset. */
  id: string | null;
}

export function isActiveChanged(value: unknown): value is ActiveChanged {
  const v = value as ActiveChanged | null;
  return !!v && v.type === 'active-changed' && DATASET_NAMES.includes(v.dataset) && (v.id === null || typeof v.id === 'string');
}

export function announceActive(change: ActiveChanged): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(ACTIVE_CHANNEL);
  channel.postMessage({ type: 'active-changed', dataset: change.dataset, id: change.id } satisfies ActiveChanged);
  channel.close();
}

/** Calls `listener` for every change announced on this origin (this context's own included: listeners ignore a change they already made). */
export function onActiveChanged(listener: (change: ActiveChanged) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(ACTIVE_CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    if (isActiveChanged(event.data)) listener(event.data);
  };
  return () => channel.close();
}
