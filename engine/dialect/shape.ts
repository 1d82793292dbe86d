/**
 * The production dialect for a door whose answers do not come from the engine's `answer` (PostgreSQL): the same
 * last shaping step (each API's `production`), applied to the finished answer of a routed request.
 */
import type { ApiDefinition } from '../http/routes.ts';
import { contextOf } from '../http/routes.ts';
import type { ApiResponse, Routed } from '../http/types.ts';
import type { Dialect } from './dialect.ts';

export function inDialect(apis: readonly ApiDefinition[], routed: Routed, response: ApiResponse, dialect: Dialect): ApiResponse {
  // A HEAD's answer has no body to shape; its headers are the GET's in both dialects.
  if (dialect !== 'production' || routed.kind !== 'route' || response.body === '') return response;
  const api = apis.find((candidate) => candidate.id === routed.api);
  return api?.production ? api.production(contextOf(routed), response) : response;
}
