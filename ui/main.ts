// First: the DB worker and the data load start before the other modules evaluate (start-db.ts).
import { db } from './start-db.ts';
import { registerPwa } from './pwa/register.ts';
import { AppShell } from './components/app-shell/app-shell.ts';

/**
 * Bootstrap: one DB worker for the page, handed to the app shell (which provides it to every view) and
 * to the PWA layer (which relays the service worker's API requests to it).
 */
const shell = new AppShell();
shell.db = db;
document.getElementById('app')!.replaceWith(shell);

shell.pwa = registerPwa({ db });
