import { Engine } from './http/engine.ts';
import type { ApiDefinition } from './http/routes.ts';
import { siteScanningApi } from './site-scanning/api.ts';
import { ceilingRatesApi } from './ceilingrates/api.ts';

/** The route table: every API the engine answers. A new API joins here without touching the others. */
export const APIS: readonly ApiDefinition[] = [siteScanningApi, ceilingRatesApi];

export function createEngine(): Engine {
  return new Engine(APIS);
}

export { Engine } from './http/engine.ts';
export { matchRoute } from './http/match.ts';
export type { ApiRequest, ApiResponse, DatasetName } from './http/types.ts';
