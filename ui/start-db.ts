import { createDbClient } from './api/db-client.ts';
import { parseHash } from './state/route.ts';

/**
 * The page's one DB worker, with its data load started as soon as this module runs: main.ts imports it
 * first, so the worker starts (and its file, sql.js and the datasets load) while the rest of the app's
 * modules are still evaluating. The load is what the first view waits for.
 */
export const db = createDbClient();
const view = parseHash(location.hash).view;
void db.init(new URL(`${import.meta.env.BASE_URL}data/`, location.href).href, view === 'websites' || view === 'website' ? 'websites' : 'ceilingrates');
