import { route, type RoutedToData } from '../../../engine/http/route.ts';
import { APIS } from '../../../engine/index.ts';
import type { ApiRequest } from '../../../engine/http/types.ts';

/** A request routed as a door routes it, for a test that hands routes to a backend; throws for a path no route takes. */
export function routed(request: ApiRequest): RoutedToData {
  const result = route(APIS, request);
  if (result?.kind !== 'route') throw new Error(`${request.url} is not routed to data`);
  return result;
}
