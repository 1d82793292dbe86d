// First: the DB worker and the data load start before anything else evaluates (start-db.ts).
import { db } from './start-db.ts';
import { registerPwa } from './pwa/register.ts';

/**
 * Bootstrap, in two steps. This small module starts the DB worker and registers the service worker (its
 * relay bridge must listen before the page finishes loading, or the service worker's first ports are
 * lost). The app's own modules are a separate chunk, loaded once the worker runs: starting a worker and
 * handing it the page's first messages take tasks on this thread, which the app's evaluation and first
 * render would otherwise hold up by a few hundred milliseconds (docs/decisions/0405).
 */
const pwa = registerPwa({ db });
/** A worker that never says it runs (its script failed to load) must not keep the app from showing why. */
const RUNNING_WAIT_MS = 2_000;
await Promise.race([db.running(), new Promise((resolve) => setTimeout(resolve, RUNNING_WAIT_MS))]);
const { startApp } = await import('./app.ts');
startApp(db, pwa);
