import type { DbClient } from './api/db-client.ts';
import type { PwaController } from './pwa/context.ts';
import { AppShell } from './components/app-shell/app-shell.ts';

/** The app shell, given the page's DB client (which it provides to every view) and the PWA controller. */
export function startApp(db: DbClient, pwa: PwaController): void {
  const shell = new AppShell();
  shell.db = db;
  shell.pwa = pwa;
  document.getElementById('app')!.replaceWith(shell);
}
