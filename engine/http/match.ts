import type { ApiDefinition, RouteSpec } from './routes.ts';

export interface RouteMatch {
  api: ApiDefinition;
  /** Null when the path is under one of the API's own (non-root) bases but names no route. */
  route: RouteSpec | null;
  params: Record<string, string>;
  base: string;
  path: string;
}

function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const have = path.split('/');
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i];
    if (part.startsWith('*')) {
      const rest = have.slice(i).join('/');
      if (rest === '') return null;
      params[part.slice(1)] = safeDecode(rest);
      return params;
    }
    if (i >= have.length) return null;
    if (part.startsWith(':')) {
      if (have[i] === '') return null;
      params[part.slice(1)] = safeDecode(have[i]);
    } else if (part !== have[i]) {
      return null;
    }
  }
  return want.length === have.length ? params : null;
}

/** A malformed escape stays literal text rather than failing the request. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function underBase(pathname: string, base: string): string | null {
  if (base === '') return pathname;
  if (pathname === base) return '';
  if (pathname.startsWith(base + '/')) return pathname.slice(base.length);
  return null;
}

/**
 * Which API (if any) a path belongs to. Pure: the service worker uses it to decide what to answer
 * without opening a database. Paths at the app root that name no route are not API paths (they are the
 * app's own files); paths under an API's own base always are (they get that API's 404).
 */
export function matchRoute(apis: readonly ApiDefinition[], pathname: string): RouteMatch | null {
  let fallback: RouteMatch | null = null;
  for (const api of apis) {
    for (const base of api.bases) {
      const path = underBase(pathname, base);
      if (path === null) continue;
      for (const route of api.routes) {
        const params = matchPattern(route.pattern, path);
        if (params) return { api, route, params, base, path };
      }
      if (base !== '' && !fallback) fallback = { api, route: null, params: {}, base, path };
    }
  }
  return fallback;
}
