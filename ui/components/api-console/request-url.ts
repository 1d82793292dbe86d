import { CEILING_RATES_PATH } from '../../../engine/ceilingrates/parameters.ts';
import { ENDPOINTS, type EndpointSpec } from './endpoints.ts';

/** The console's form: one list of values per parameter (several for a repeatable one), in form order. */
export type ParamValues = Record<string, string[]>;

/** Encode a query value as the APIs document it (`|`, `,` and `:` readable, spaces as %20). */
function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/gi, ',').replace(/%3A/gi, ':').replace(/%7C/gi, '|');
}

/** The path and query for the form: empty values are left out, repeatable ones keep their order. */
export function requestPath(endpoint: EndpointSpec, values: ParamValues): string {
  let path = endpoint.path;
  const query: string[] = [];
  for (const param of endpoint.params) {
    const given = (values[param.name] ?? []).filter((v) => v.trim() !== '');
    if (param.inPath) {
      path = path.replace(`{${param.name}}`, encodeURIComponent(given[0] ?? ''));
    } else {
      for (const value of param.repeatable ? given : given.slice(0, 1)) query.push(`${encodeURIComponent(param.name)}=${encodeValue(value)}`);
    }
  }
  return query.length ? `${path}?${query.join('&')}` : path;
}

/** The same request against production: the production base plus the path below the local base. */
export function productionUrl(endpoint: EndpointSpec, localPath: string): string {
  const local = endpoint.id === 'ceilingrates' ? CEILING_RATES_PATH : '';
  const rest = localPath.slice(local.length);
  // Site Scanning's base has no trailing slash and the path starts with one; the ceiling-rates base is the
  // whole path (with its trailing slash) and only the query follows.
  const url = endpoint.productionBase + rest;
  if (!endpoint.productionKey) return url;
  return `${url}${url.includes('?') ? '&' : '?'}api_key=DEMO_KEY`;
}

/** A `fetch()` snippet a prototype can paste. */
export function fetchSnippet(url: string, method: string): string {
  const init = method === 'GET' ? '' : `, { method: '${method}' }`;
  return `const response = await fetch('${url.replaceAll("'", "\\'")}'${init});\nconst body = await response.json();`;
}

/** A curl command (single quotes: the shell leaves the URL alone). */
export function curlCommand(url: string, method: string): string {
  const flag = method === 'HEAD' ? '--head ' : method === 'GET' ? '' : `-X ${method} `;
  return `curl -sS ${flag}'${url.replaceAll("'", "'\\''")}'`;
}

/** Read a request URL back into the form (for a shared console link), or null when no endpoint owns it. */
export function parseRequest(url: string): { endpoint: EndpointSpec; values: ParamValues } | null {
  const parsed = new URL(url, 'http://localhost');
  const path = parsed.pathname;
  const endpoint =
    ENDPOINTS.find((e) => !e.path.includes('{') && e.path === path) ??
    ENDPOINTS.find((e) => e.path.includes('{') && path.startsWith(e.path.slice(0, e.path.indexOf('{'))) && path.length > e.path.indexOf('{'));
  if (!endpoint) return null;
  const values: ParamValues = {};
  for (const param of endpoint.params) {
    if (param.inPath) {
      const raw = path.slice(endpoint.path.indexOf('{'));
      try {
        values[param.name] = [decodeURIComponent(raw)];
      } catch {
        values[param.name] = [raw];
      }
    } else {
      const all = parsed.searchParams.getAll(param.name);
      if (all.length) values[param.name] = param.repeatable ? all : all.slice(0, 1);
    }
  }
  return { endpoint, values };
}
