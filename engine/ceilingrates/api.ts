/**
 * GET /api/v3/search/ceilingrates/ (and the gateway path): the API's definition. Its one route is answered by
 * the index of the opened database (ceiling-rates-index.ts).
 */
import type { ApiDefinition, RouteHandler } from '../http/routes.ts';
import { UNAVAILABLE_DETAIL } from '../http/respond.ts';
import { CEILING_RATES_BASES } from './parameters.ts';
import { ceilingRatesIndex, type CeilingRatesIndex } from './ceiling-rates-index.ts';
import { detail, respond } from './shape.ts';
import { productionCeilingRates } from './production.ts';

function handlers(index: CeilingRatesIndex): Record<string, RouteHandler> {
  return { search: (ctx) => index.search(ctx) };
}

export const ceilingRatesApi: ApiDefinition = {
  id: 'ceiling-rates',
  dataset: 'ceilingrates',
  bases: CEILING_RATES_BASES,
  // The documented path ends with a slash; the bare base answers the same.
  routes: [
    { name: 'search', pattern: '/' },
    { name: 'search', pattern: '' },
  ],
  allow: ['GET'],
  errors: {
    notFound: () => detail(404, 'Not found.'),
    methodNotAllowed: ({ method }) => detail(405, `Method "${method}" not allowed.`),
    internal: () => detail(500, 'Internal server error'),
    unavailable: () => detail(503, UNAVAILABLE_DETAIL),
  },
  options: () => respond(200, { name: 'Ceiling Rates', renders: ['application/json'], parses: ['application/json'] }),
  bind: (db) => handlers(ceilingRatesIndex(db)),
  production: productionCeilingRates,
  prepared: {
    save: (db) => ceilingRatesIndex(db).preparedBytes(),
    bind: (db, prepared) => handlers(ceilingRatesIndex(db, prepared)),
  },
};
