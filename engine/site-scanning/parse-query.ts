import { sizeProblem, type SizeProblem } from '../http/request-size.ts';
import {
  BOOLEAN_SPELLINGS,
  LIMIT_PARAMETER,
  PAGE_PARAMETER,
  SITE_SCANNING_ROUTES,
  WEBSITE_FILTER_PARAMETERS,
  type FilterName,
  type WebsiteFilterParameter,
} from './parameters.ts';

/** A filter's typed value: booleans as booleans, enums as their values, the rest as text. */
type FilterValue<P extends WebsiteFilterParameter> = P['kind'] extends 'boolean' ? boolean : P extends { values: readonly (infer V)[] } ? V : string;

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

/**
 * The messages of class-validator's checks that fail for `n`, in the order it lists them for production's
 * decorators (`@Min`/`@Max` first, then `@IsPositive`, then `@IsNumber`). NaN fails every check; ±Infinity
 * fails `@IsNumber` and whichever bound or sign it crosses.
 */
function numberMessages(name: string, n: number, bound: { min: number } | { max: number }): string[] {
  const messages: string[] = [];
  if ('min' in bound && !(n >= bound.min)) messages.push(`${name} must not be less than ${bound.min}`);
  if ('max' in bound && !(n <= bound.max)) messages.push(`${name} must not be greater than ${bound.max}`);
  if (!(n > 0)) messages.push(`${name} must be a positive number`);
  if (!Number.isFinite(n)) messages.push(`${name} must be a number conforming to the specified constraints`);
  return messages;
}

/** After validation, production's controller floors the number with a minimum of 1 (`limit=0.5` is 1). */
function floorToOne(n: number): number {
  return Math.max(1, Math.floor(n));
}

/** A size problem in the framework's validation wording. */
export function sizeMessage(problem: SizeProblem): string {
  switch (problem.kind) {
    case 'query-length':
      return `query must be shorter than or equal to ${problem.limit} characters`;
    case 'parameters':
      return `query must contain no more than ${problem.limit} parameters`;
    case 'count':
    case 'list':
      return `${problem.parameter} must contain no more than ${problem.limit} elements`;
    case 'length':
      return `${problem.parameter} must be shorter than or equal to ${problem.limit} characters`;
  }
}

const LIST_PARAMETERS = SITE_SCANNING_ROUTES[0].parameters;

/**
 * Query parameters → a validated typed query, or every failing check's message (docs/api/site-scanning.md, in
 * parameter order; decision 0101). The first value of a repeated parameter counts; unknown ones and
 * `api_key` are ignored.
 */
export function parseWebsiteQuery(params: URLSearchParams, search = `?${params.toString()}`): Parsed {
  // Beyond the request size limits nothing else is looked at: that problem alone is the answer.
  const problem = sizeProblem(LIST_PARAMETERS, search, params);
  if (problem) return { ok: false, messages: [sizeMessage(problem)] };
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
        // Production tests the value for truthiness: an empty agency or bureau (a form's empty select) is no filter.
        if (value !== '') set[name] = value;
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
    const sent = Number(pageText); // the framework's transform, `@Type(() => Number)`: '' is 0
    messages.push(...numberMessages(PAGE_PARAMETER.name, sent, { min: PAGE_PARAMETER.min }));
    // Links carry page ± 1 as digits: a finite page above the largest is refused (Infinity already is).
    if (Number.isFinite(sent) && sent > PAGE_PARAMETER.max) messages.push(`page must not be greater than ${PAGE_PARAMETER.max}`);
    page = floorToOne(sent);
  }

  let limit: number = LIMIT_PARAMETER.default;
  const limitText = params.get(LIMIT_PARAMETER.name);
  if (limitText !== null) {
    const sent = Number(limitText);
    messages.push(...numberMessages(LIMIT_PARAMETER.name, sent, { max: LIMIT_PARAMETER.max }));
    limit = floorToOne(sent);
  }

  return messages.length > 0 ? { ok: false, messages } : { ok: true, query: { filters, page, limit } };
}
