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
    } else if (part.toLowerCase() !== have[i].toLowerCase()) {
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

/** The path below a base; the base's words match in any letter case, as production's router does. */
function underBase(pathname: string, base: string): string | null {
  if (base === '') return pathname;
  const head = pathname.slice(0, base.length).toLowerCase();
  if (head !== base.toLowerCase()) return null;
  if (pathname.length === base.length) return '';
  return pathname[base.length] === '/' ? pathname.slice(base.length) : null;
}

/** A route's params for the path, or for the path without its one trailing slash (`/websites/` is `/websites`; `//` is not). */
function matchLoosely(pattern: string, path: string): Record<string, string> | null {
  const exact = matchPattern(pattern, path);
  if (exact || !path.endsWith('/') || path.endsWith('//')) return exact;
  return matchPattern(pattern, path.slice(0, -1));
}

/**
 * Which API (if any) a path belongs to. Like production's routers (Express, non-strict and case-insensitive),
 * a trailing slash and the letter case of the fixed words are ignored; path parameters keep theirs. Pure: the service worker uses it to decide what to answer
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
        const params = matchLoosely(route.pattern, path);
        if (params) return { api, route, params, base, path };
      }
      if (base !== '' && !fallback) fallback = { api, route: null, params: {}, base, path };
    }
  }
  return fallback;
}
