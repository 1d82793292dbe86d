import type { ApiRequest } from '../../engine/http/types.ts';
import type { Dialect } from '../../engine/dialect/dialect.ts';

/** A fetch Request as plain data for the engine: the method, the URL as received, the headers (and a dialect asked for). */
export function apiRequestOf(request: Request, dialect?: Dialect): ApiRequest {
  const plain: ApiRequest = { method: request.method, url: request.url, headers: Object.fromEntries(request.headers) };
  return dialect ? { ...plain, dialect } : plain;
}
