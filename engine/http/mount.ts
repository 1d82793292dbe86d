/**
 * Where a deployment serves the app and the APIs: the path below the origin (`/apps/gov` for a build made with
 * `BASE=/apps/gov/`, GitHub Pages' `/<repo>`, '' at an origin's root). A door decides it once (the service worker
 * from its scope) and routes every request with it: each API base, `/snapshots/<date>/` and the document paths are
 * answered below it, and nothing outside it is an API path (the origin's other paths are someone else's).
 */

/** A normalised deployment base: '' or `/segment[/segment…]`, no trailing slash. Made by `mountAt` only. */
export type Mount = string & { readonly __mount: unique symbol };

/** The origin's root: the APIs at their own paths, as every door but a sub-path build serves them. */
export const ROOT_MOUNT = '' as Mount;

const SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/;

/**
 * The mount of a base path as a build or a host writes it (`/apps/gov/`, `/apps/gov`, `/`). Throws on a base
 * that is not an absolute path of plain segments (a relative `./`, a query, `..`): a base says where the app
 * is, so guessing would serve it somewhere else.
 */
export function mountAt(base: string): Mount {
  if (!base.startsWith('/')) throw new Error(`a base path starts with "/": "${base}"`);
  const segments = base.split('/').filter((s) => s !== '');
  for (const segment of segments) {
    if (!SEGMENT.test(segment) || segment === '.' || segment === '..') throw new Error(`not a plain base path: "${base}"`);
  }
  return (segments.length ? `/${segments.join('/')}` : '') as Mount;
}

/**
 * The path below the mount, as the APIs' own servers would see it (`/websites` for `/apps/gov/websites`), or
 * null when the path is not under the mount. Compared exactly: a static host's paths are case-sensitive.
 */
export function belowMount(pathname: string, mount: Mount): string | null {
  if (mount === '') return pathname;
  if (!pathname.startsWith(mount)) return null;
  const rest = pathname.slice(mount.length);
  return rest === '' || rest.startsWith('/') ? rest : null;
}
