import {
  BOOLEAN_SPELLINGS,
  LIMIT_PARAMETER,
  PAGE_PARAMETER,
  WEBSITE_FILTER_PARAMETERS,
  type FilterName,
  type WebsiteFilterParameter,
} from './parameters.ts';

/** A filter's typed value: booleans as booleans, enums as their values, the rest as text. */
type FilterValue<P extends WebsiteFilterParameter> = P['kind'] extends 'boolean'
  ? boolean
  : P extends { values: readonly (infer V)[] }
    ? V
    : string;

/** The filters of /websites and /analysis (names and kinds from the parameter table). */
export type WebsiteFilters = { [P in WebsiteFilterParameter as P['name']]?: FilterValue<P> };

export interface WebsiteQuery {
  filters: WebsiteFilters;
  page: number;
  limit: number;
}

export type Parsed = { ok: true; query: WebsiteQuery } | { ok: false; messages: string[] };

/** A Map, not an object literal: `in` on an object also finds `constructor`, `toString`, `__proto__`. */
const BOOLEAN_VALUES: ReadonlyMap<string, boolean> = new Map(BOOLEAN_SPELLINGS);

/**
 * What the framework's URL check accepts for a domain filter: host labels with a dot-separated alphabetic
 * top-level domain, optionally with a scheme, port and path (`gsa` fails, `gsa.gov` passes).
 */
const URL_ADDRESS = /^(https?:\/\/)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}\.?(:\d{1,5})?([/?#]\S*)?$/i;

/** A number as the framework's transform reads it (`Number(text)`), floored; NaN when it is not one. */
function toNumber(text: string): number {
  const n = Number(text);
  return Number.isFinite(n) ? Math.floor(n) : Number.NaN;
}

/**
 * Query parameters → a validated typed query, or every failing check's message (docs/api/site-scanning.md, in
 * parameter order; decision 0101). The first value of a repeated parameter counts; unknown ones and
 * `api_key` are ignored.
 */
export function parseWebsiteQuery(params: URLSearchParams): Parsed {
  const messages: string[] = [];
  const filters: WebsiteFilters = {};

  const set = filters as Record<FilterName, unknown>;
  for (const parameter of WEBSITE_FILTER_PARAMETERS) {
    const { name } = parameter;
    const value = params.get(name);
    if (value === null) continue;
    switch (parameter.kind) {
      case 'domain':
        if (URL_ADDRESS.test(value)) set[name] = value;
        else messages.push(`${name} must be a URL address`);
        break;
      case 'boolean': {
        const flag = BOOLEAN_VALUES.get(value);
        if (flag !== undefined) set[name] = flag;
        else messages.push(`${name} must be a boolean string`);
        break;
      }
      case 'text':
        set[name] = value;
        break;
      case 'enum':
        if ((parameter.values as readonly string[]).includes(value)) set[name] = value;
        else messages.push(`${name} must be one of the following values: ${parameter.values.join(', ')}`);
        break;
    }
  }

  let page: number = PAGE_PARAMETER.default;
  const pageText = params.get(PAGE_PARAMETER.name);
  if (pageText !== null) {
    page = toNumber(pageText);
    if (Number.isNaN(page)) messages.push('page must be a number conforming to the specified constraints');
    if (!(page >= PAGE_PARAMETER.min)) messages.push(`page must not be less than ${PAGE_PARAMETER.min}`);
  }

  let limit: number = LIMIT_PARAMETER.default;
  const limitText = params.get(LIMIT_PARAMETER.name);
  if (limitText !== null) {
    limit = toNumber(limitText);
    if (!(limit <= LIMIT_PARAMETER.max)) messages.push(`limit must not be greater than ${LIMIT_PARAMETER.max}`);
    if (!(limit >= LIMIT_PARAMETER.min)) messages.push('limit must be a positive number');
  }

  return messages.length > 0 ? { ok: false, messages } : { ok: true, query: { filters, page, limit } };
}
