import { Engine, type EngineEvents } from './http/engine.ts';
import type { ApiDefinition } from './http/routes.ts';
import { DATASETS } from './dataset-registry.ts';
import { DEFAULT_DIALECT, type Dialect } from './dialect/dialect.ts';

/** The route table: every dataset's API. A new API joins the dataset registry without touching the others. */
export const APIS: readonly ApiDefinition[] = DATASETS.map((d) => d.api);

export function createEngine(events: EngineEvents = {}, dialect: Dialect = DEFAULT_DIALECT): Engine {
  return new Engine(APIS, events, dialect);
}

export { Engine, type EngineEvents } from './http/engine.ts';
export { route, finish, failed, apiOf, type Routed, type RoutedToData } from './http/route.ts';
export type { ApiRequest, ApiResponse, DatasetName } from './http/types.ts';
export { DIALECTS, DEFAULT_DIALECT, parseDialect, isDialect, type Dialect } from './dialect/dialect.ts';
export { inDialect } from './dialect/shape.ts';
export { DATASETS, datasetDefinition, type DatasetDefinition } from './dataset-registry.ts';
