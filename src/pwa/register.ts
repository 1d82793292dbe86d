// PLACEHOLDER until the offline/PWA work lands: the app calls this once its DB client exists.
import type { DbClient } from '../api/db-client.ts';

export function registerPwa(_options: { db: DbClient }): void {}
