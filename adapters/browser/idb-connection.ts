/**
 * One IndexedDB connection per database in this context, opened on first use and given up whenever another context
 * deletes or upgrades the database (the Datasets page's reset): it is opened again on the next call.
 */
import { openDB, type DBSchema, type IDBPDatabase, type OpenDBCallbacks } from 'idb';

export function yieldingConnection<S extends DBSchema | unknown>(
  name: string,
  version: number,
  upgrade: NonNullable<OpenDBCallbacks<S>['upgrade']>,
): () => Promise<IDBPDatabase<S>> {
  let opening: Promise<IDBPDatabase<S>> | null = null;
  return () => {
    opening ??= openDB<S>(name, version, {
      upgrade,
      blocking() {
        void opening?.then((db) => db.close());
        opening = null;
      },
      terminated() {
        opening = null;
      },
    });
    opening.catch(() => (opening = null));
    return opening;
  };
}
