/**
 * What the HTTP server asks for an answer: the in-memory engine, or another backend answering the same APIs
 * (adapters/node/postgres). `handle` may be asynchronous; the server awaits it either way.
 */
import type { ApiDefinition } from '../../engine/http/routes.ts';
import type { ApiRequest, ApiResponse } from '../../engine/http/types.ts';
import { matchRoute } from '../../engine/http/match.ts';
import { splitSnapshotPath } from '../../engine/http/snapshots.ts';

export interface AnswerSource {
  readonly apis: readonly ApiDefinition[];
  handle(request: ApiRequest): ApiResponse | Promise<ApiResponse>;
}

/** True when a path is an API's (under `/snapshots/<date>/` too): the source answers it, not the static files. */
export function isApiPath(source: AnswerSource, pathname: string): boolean {
  const dated = splitSnapshotPath(pathname);
  return matchRoute(source.apis, dated ? dated.pathname : pathname) !== null;
}
