// PLACEHOLDER until the site-scanning API lands: no routes yet.
import type { ApiDefinition } from '../http/routes.ts';
import { json } from '../http/respond.ts';

export const siteScanningApi: ApiDefinition = {
  id: 'site-scanning',
  dataset: 'websites',
  bases: [],
  routes: [],
  allow: ['GET'],
  errors: {
    notFound: () => json(404, { detail: 'Not found.' }),
    methodNotAllowed: () => json(405, { detail: 'Method not allowed.' }),
    internal: () => json(500, { detail: 'Internal server error' }),
    unavailable: () => json(503, { detail: 'Dataset not loaded' }),
  },
  bind: () => ({}),
};
