/**
 * `/snapshots/<YYYY-MM-DD>/<API path>`: the same API path, answered from the Site Scanning snapshot of that
 * date rather than the newest. Pure, so every backend that keeps several snapshots routes it the same way.
 */
import type { ApiRequest, ApiResponse, DatasetName } from './types.ts';
import type { ApiDefinition } from './routes.ts';
import { dispatch, finish, noRoute } from './dispatch.ts';

export const SNAPSHOTS_PREFIX = '/snapshots/';

const DATED = /^\/snapshots\/(\d{4}-\d{2}-\d{2})(\/.*)$/;

export interface SnapshotPath {
  /** YYYY-MM-DD as written in the path (checked as a calendar date). */
  snapshot: string;
  /** The API path below the prefix, e.g. `/websites`. */
  pathname: string;
}

/** True for a real calendar date written YYYY-MM-DD (2025-02-30 is not one). */
export function isSnapshotDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The snapshot a path names and the API path below it; null for a path without the prefix or a real date. */
export function splitSnapshotPath(pathname: string): SnapshotPath | null {
  const match = DATED.exec(pathname);
  if (!match || !isSnapshotDate(match[1])) return null;
  return { snapshot: match[1], pathname: match[2] };
}

/** Anything that answers a request synchronously: an Engine bound to one snapshot's database. */
export interface SnapshotAnswers {
  handle(request: ApiRequest): ApiResponse;
}

/**
 * A dated request answered by whichever engine holds that snapshot, in the same order of checks as every
 * backend: the path below the prefix is dispatched as usual (its 400s, 404s and preflights), then a dated
 * path of an API without snapshots, or a date no engine holds, is a path no route takes. Null when the
 * request is not dated (answer it as usual).
 */
export function answerDated(
  apis: readonly ApiDefinition[],
  request: ApiRequest,
  engineFor: (snapshot: string) => SnapshotAnswers | undefined,
): ApiResponse | null {
  const dated = datedRequest(request);
  if (!dated) return null;
  const routed = dispatch(apis, dated.request);
  if (routed.kind === 'answered') return finish(request, routed.response);
  const engine = routed.api.dataset === SNAPSHOT_DATASET ? engineFor(dated.snapshot) : undefined;
  if (!engine) return finish(request, noRoute(request.method.toUpperCase(), dated.pathname));
  return engine.handle(dated.request);
}

/** The one dataset kept by snapshot. */
export const SNAPSHOT_DATASET: DatasetName = 'websites';

/** A `/snapshots/<date>/…` request as the same request without the prefix, with the date and the full path. */
export function datedRequest(request: ApiRequest): { request: ApiRequest; snapshot: string; pathname: string } | null {
  let url: URL;
  try {
    url = new URL(request.url, 'http://localhost');
  } catch {
    return null;
  }
  const split = splitSnapshotPath(url.pathname);
  if (!split) return null;
  return { request: { ...request, url: split.pathname + url.search }, snapshot: split.snapshot, pathname: url.pathname };
}
