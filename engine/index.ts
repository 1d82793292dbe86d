import { Engine, type EngineEvents } from './http/engine.ts';
import type { ApiDefinition } from './http/routes.ts';
import { DATASETS } from './dataset-registry.ts';

/** The route table: every dataset's API. A new API joins the dataset registry without touching the others. */
export const APIS: readonly ApiDefinition[] = DATASETS.map((d) => d.api);

export function createEngine(events: EngineEvents = {}): Engine {
  return new Engine(APIS, events);
}

export { Engine, type EngineEvents } from './http/engine.ts';
export { route, finish, failed, apiOf, type Routed, type RoutedToData } from './http/route.ts';
export type { ApiRequest, ApiResponse, DatasetName } from './http/types.ts';
export { DATASETS, datasetDefinition, type DatasetDefinition } from './dataset-registry.ts';
