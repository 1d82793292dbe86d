import type { Engine } from '../../../engine/http/engine.ts';
import { DATASET_NAMES } from '../../../engine/dataset-registry.ts';

/**
 * One request per route, asked once at start: the lazy parts of a bind (the websites filter index, the
 * rates' value forms) are built and the query code has run, so the first client is not the one who pays.
 */
const WARM_REQUESTS = [
  '/websites?limit=1',
  '/analysis',
  '/websites/warm.example',
  '/api/v3/search/ceilingrates/?keyword=engineer&page=1',
  '/api/v3/search/ceilingrates/?suggest-contains=labor_category:eng',
];

/** Bind every dataset's APIs now (`Engine.prepare`) and answer the warming requests, discarding the answers. */
export function warm(engine: Engine): void {
  for (const name of DATASET_NAMES) engine.prepare(name);
  for (const url of WARM_REQUESTS) engine.handle({ method: 'GET', url });
}
