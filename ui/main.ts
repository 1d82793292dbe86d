import { createDbClient } from './api/db-client.ts';
import { registerPwa } from './pwa/register.ts';
import { AppShell } from './components/app-shell/app-shell.ts';
import { parseHash } from './state/route.ts';

/**
 * Bootstrap: one DB worker for the page, handed to the app shell (which provides it to every view) and
 * to the PWA layer (which relays the service worker's API requests to it). The data load starts at once.
 */
const db = createDbClient();
const view = parseHash(location.hash).view;
void db.init(new URL(`${import.meta.env.BASE_URL}data/`, location.href).href, view === 'websites' || view === 'website' ? 'websites' : 'ceilingrates');

const shell = new AppShell();
shell.db = db;
document.getElementById('app')!.replaceWith(shell);

shell.pwa = registerPwa({ db });
