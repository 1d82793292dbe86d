export { checkManifest, manifestArtifacts, manifestUrl, readManifest, resolveDataUrl } from './artifact/manifest.ts';
export { DatasetIntegrityError, verifyArtifact } from './artifact/verify.ts';
export { pack, unpack } from './artifact/unpack.ts';
export { readBody } from './artifact/read-body.ts';
export { countRows, tableWithColumns } from './sqlite-catalogue.ts';
export { groupOwners, ownerPairs, type AgencyOwners, type OwnerPair } from './websites/owners.ts';
