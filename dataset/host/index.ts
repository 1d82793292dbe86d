export { DatasetHost, type HostPlatform } from './host.ts';
export type { OpenedDataset } from './open.ts';
export type { FetchFile } from '../artifact/acquire.ts';
export type { ImportedDataset, ImportedStore } from './imported-store.ts';
export type { LoadPhase, LoadProgress, ProgressCallback } from './progress.ts';
export { datasetStatus, type DatasetStatus, type DbStatus } from './status.ts';
