/**
 * The imported datasets on this machine, in IndexedDB: what each import is (metadata), its database file
 * (gzip'd bytes: dataset/artifact/unpack.ts `pack`), and which dataset is active per API. Read by the DB worker and by the service
 * worker's own engine, so both open the same active dataset. Platform-free apart from IndexedDB.
 */
import type { DBSchema } from 'idb';
import { yieldingConnection } from './idb-connection.ts';
import type { DatasetName } from '../../engine/http/types.ts';
import type { ImportedDataset } from '../../dataset/host/imported-store.ts';

export type { ImportedDataset };

export const IMPORT_DB_NAME = 'offline-gov-api-imports';
const VERSION = 1;

interface ImportSchema extends DBSchema {
  imports: { key: string; value: ImportedDataset };
  /**
   * The gzip'd SQLite file of each import; apart from the metadata so listing never reads megabytes. Bytes; an
   * earlier version kept Blobs, which WebKit's IndexedDB refuses to store (they are still read).
   */
  files: { key: string; value: Uint8Array | Blob };
  /** The active import id per dataset; no entry means the build's dataset. */
  active: { key: DatasetName; value: string };
}

const store = yieldingConnection<ImportSchema>(IMPORT_DB_NAME, VERSION, (db) => {
  db.createObjectStore('imports', { keyPath: 'id' });
  db.createObjectStore('files');
  db.createObjectStore('active');
});

/** Every import, oldest first. */
export async function listImports(): Promise<ImportedDataset[]> {
  const all = await (await store()).getAll('imports');
  return all.sort((a, b) => a.importedAt.localeCompare(b.importedAt));
}

/** The active import id of each dataset (absent: the build's dataset). */
export async function activeImports(): Promise<Partial<Record<DatasetName, string>>> {
  const db = await store();
  const tx = db.transaction('active');
  const result: Partial<Record<DatasetName, string>> = {};
  for (const key of await tx.store.getAllKeys()) {
    const id = await tx.store.get(key);
    if (id) result[key] = id;
  }
  await tx.done;
  return result;
}

export async function readImport(id: string): Promise<{ meta: ImportedDataset; file: Uint8Array } | null> {
  const db = await store();
  const tx = db.transaction(['imports', 'files']);
  const [meta, file] = await Promise.all([tx.objectStore('imports').get(id), tx.objectStore('files').get(id)]);
  await tx.done;
  if (!meta || !file) return null;
  return { meta, file: file instanceof Blob ? new Uint8Array(await file.arrayBuffer()) : file };
}

/**
 * Stores an import and makes it the active one of its dataset, in one transaction: after a crash, a
 * reload or a quota error there is either all of it or none of it.
 */
export async function saveImport(meta: ImportedDataset, file: Uint8Array): Promise<void> {
  const db = await store();
  const tx = db.transaction(['imports', 'files', 'active'], 'readwrite');
  try {
    await Promise.all([
      tx.objectStore('files').put(file, meta.id),
      tx.objectStore('imports').put(meta),
      // An attachment is kept beside the active dataset, never in its place (a switch is the user's to make).
      meta.attachment ? null : tx.objectStore('active').put(meta.id, meta.dataset),
      tx.done,
    ]);
  } catch (error) {
    // A write refused outright (some browsers throw the quota error from put itself): keep none of it.
    try {
      tx.abort();
    } catch {
      // Already aborted by the browser.
    }
    throw error;
  }
}

/** The kept copy of an attachment (the newest kept), or null. */
export async function keptAttachment(attachment: string): Promise<string | null> {
  const kept = (await listImports()).filter((meta) => meta.attachment === attachment).sort((a, b) => (a.importedAt < b.importedAt ? 1 : -1));
  return kept[0]?.id ?? null;
}

/** Makes an import (or, with null, the build's dataset) the active one of a dataset. */
export async function setActive(dataset: DatasetName, id: string | null): Promise<void> {
  const db = await store();
  if (id === null) await db.delete('active', dataset);
  else await db.put('active', id, dataset);
}

/** Removes an import; if it was active, its dataset falls back to the build's (same transaction). */
export async function deleteImport(id: string): Promise<void> {
  const db = await store();
  const tx = db.transaction(['imports', 'files', 'active'], 'readwrite');
  const meta = await tx.objectStore('imports').get(id);
  const ops: Promise<unknown>[] = [tx.objectStore('imports').delete(id), tx.objectStore('files').delete(id)];
  if (meta && (await tx.objectStore('active').get(meta.dataset)) === id) ops.push(tx.objectStore('active').delete(meta.dataset));
  await Promise.all([...ops, tx.done]);
}

/** True when an IndexedDB failure is the storage quota (the write was refused, nothing stored). */
export function isQuotaError(error: unknown): boolean {
  const e = error as { name?: string; message?: string; inner?: unknown } | null;
  if (!e) return false;
  return e.name === 'QuotaExceededError' || /quota/i.test(e.message ?? '');
}
