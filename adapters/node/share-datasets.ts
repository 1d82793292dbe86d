import type { ApiDefinition } from '../../engine/http/routes.ts';
import type { OpenedDataset } from './dataset-files.ts';
import type { SharedDataset } from './pool-protocol.ts';
import { sharedCopy } from './shared-bytes.ts';

/**
 * The opened datasets as the worker pool shares them: each database file, and the bind its APIs keep
 * (computed here once, so no worker binds from the records), copied into shared memory. The opened
 * databases are closed: from here on only the workers' databases over the shared bytes are read.
 */
export function shareDatasets(apis: readonly ApiDefinition[], datasets: readonly OpenedDataset[]): SharedDataset[] {
  return datasets.map(({ name, db }) => {
    const file = sharedCopy(db.export());
    const prepared = apis.find((api) => api.dataset === name && api.prepared)?.prepared;
    const kept = prepared ? sharedCopy(prepared.save(db)) : null;
    db.close();
    return { name, file, kept };
  });
}
