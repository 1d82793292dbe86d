export { fetchManifest, manifestArtifacts, resolveDataUrl } from './manifest.ts';
export { downloadArtifact, gunzip, DatasetIntegrityError, type FetchDatasetOptions } from './fetch-dataset.ts';
export { readBody } from './read-body.ts';
export { countRows, ownerPairs, tableWithColumns, type OwnerPair } from './inspect.ts';
export { groupOwners, type AgencyOwners } from './owners.ts';
export { gzipToBlob, gunzipBlob } from './compress-blob.ts';
