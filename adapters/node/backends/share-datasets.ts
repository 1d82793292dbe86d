import type { ApiDefinition } from '../../../engine/http/routes.ts';
import type { DatasetFromFile } from '../datasets/dataset-files.ts';
import type { DatasetBytes, SharedDataset } from './pool-protocol.ts';
import { sharedCopy } from './shared-bytes.ts';

/**
 * The opened datasets as the worker pool reads them: each database file, and the bind its APIs prepared (computed
 * here once, so no worker binds from the records). The opened databases are closed: from here on only the
 * workers' databases over the shared bytes are read.
 */
export function datasetBytes(apis: readonly ApiDefinition[], datasets: readonly DatasetFromFile[]): DatasetBytes[] {
  return datasets.map(({ name, db, snapshot = null, attachment = null }) => {
    const file = db.export();
    const prepared = attachment ? undefined : apis.find((api) => api.dataset === name && api.prepared)?.prepared;
    const bind = prepared ? prepared.save(db) : null;
    db.close();
    return { name, file, prepared: bind, snapshot, attachment };
  });
}

/** The same copied into shared memory in this process (the server receives its copy through share-process.ts). */
export function shareDatasets(apis: readonly ApiDefinition[], datasets: readonly DatasetFromFile[]): SharedDataset[] {
  return datasetBytes(apis, datasets).map(({ name, file, prepared, snapshot, attachment }) => ({
    name,
    file: sharedCopy(file),
    prepared: prepared ? sharedCopy(prepared) : null,
    snapshot,
    attachment,
  }));
}
