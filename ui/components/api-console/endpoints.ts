import type { ParameterSpec } from '../../../engine/http/parameter-spec.ts';
import { CEILING_RATES_PARAMETERS, CEILING_RATES_PATH, FILTERS } from '../../../engine/ceilingrates/parameters.ts';
import { SITE_SCANNING_ROUTES } from '../../../engine/site-scanning/parameters.ts';

/** One query (or path) parameter as the console offers it. */
export interface ParamSpec {
  name: string;
  /** `enum` offers only `values`; `text` offers `values` as suggestions and accepts anything. */
  kind: 'text' | 'number' | 'enum';
  values?: readonly string[];
  /** May be given several times (each value is one `name=value` pair, in order). */
  repeatable?: boolean;
  /** Part of the path (`/websites/{url}`) rather than the query. */
  inPath?: boolean;
  help: string;
  placeholder?: string;
}

export interface EndpointSpec {
  id: string;
  title: string;
  /** Path on this origin (the app-root base), `{name}` for a path parameter. */
  path: string;
  /** The production base URL the same path is appended to. */
  productionBase: string;
  params: readonly ParamSpec[];
  /** Production sits behind an API gateway that wants a key; here it is accepted and ignored. */
  productionKey: boolean;
}

const BOOLEAN = ['true', 'false'] as const;
const SITE_SCANNING = 'https://api.gsa.gov/technology/site-scanning/v1';
const CEILING_RATES = 'https://api.gsa.gov/acquisition/calc/v3/api/ceilingrates/';

/** Every filter of the ceiling-rates table with each of its examples, offered as suggestions. */
const FILTER_EXAMPLES = FILTERS.flatMap((f) => f.examples.map((example) => `${f.name}:${example}`));

/** A parameter of an API's table as the console offers it: names, values and help come from the table. */
function consoleParam(p: ParameterSpec): ParamSpec {
  const shared = {
    name: p.name,
    help: p.help,
    ...(p.repeatable ? { repeatable: true } : {}),
    ...(p.in === 'path' ? { inPath: true } : {}),
    ...(p.example !== undefined ? { placeholder: p.example } : {}),
  };
  switch (p.kind) {
    case 'enum':
      return { ...shared, kind: 'enum', values: p.values };
    case 'boolean':
      return { ...shared, kind: 'enum', values: BOOLEAN };
    case 'integer':
      return { ...shared, kind: 'number' };
    case 'field-text':
      return { ...shared, kind: 'text', values: (p.values ?? []).map((field) => `${field}:`) };
    case 'filter':
      return { ...shared, kind: 'text', values: FILTER_EXAMPLES };
    case 'text':
    case 'domain':
    case 'id-list':
      return { ...shared, kind: 'text' };
  }
}

const siteScanningRoute = (name: (typeof SITE_SCANNING_ROUTES)[number]['name']) => SITE_SCANNING_ROUTES.find((r) => r.name === name)!;

const siteScanningEndpoint = (id: 'websites' | 'website' | 'analysis', title: string): EndpointSpec => {
  const route = siteScanningRoute(id);
  return {
    id,
    title: `Site Scanning: ${title}`,
    path: route.path,
    productionBase: SITE_SCANNING,
    productionKey: true,
    params: route.parameters.map(consoleParam),
  };
};

export const ENDPOINTS: readonly EndpointSpec[] = [
  siteScanningEndpoint('websites', 'list websites'),
  siteScanningEndpoint('website', 'one website'),
  siteScanningEndpoint('analysis', 'analysis'),
  {
    id: 'ceilingrates',
    title: 'Ceiling rates: search',
    path: CEILING_RATES_PATH,
    productionBase: CEILING_RATES,
    productionKey: true,
    params: CEILING_RATES_PARAMETERS.map(consoleParam),
  },
];

export function endpointById(id: string): EndpointSpec | undefined {
  return ENDPOINTS.find((e) => e.id === id);
}
