import { createContext } from '@lit/context';
import type { DbClient } from './db-client.ts';

/** The DB client, provided by the app shell to every view below it. */
export const dbContext = createContext<DbClient>(Symbol('db-client'));
