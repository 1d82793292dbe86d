/**
 * The unit suite's one PostgreSQL server, as a test file sees it: started once by the global setup
 * (tests/unit/global-setup.ts), each file's databases made apart on it (helpers/postgres.ts, sharedPostgres).
 */
import { inject } from 'vitest';
import { sharedPostgres, type SharedPostgres, type ThrowawayPostgres } from '../../../harness/postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: SharedPostgres;
  }
}

export function suitePostgres(): ThrowawayPostgres {
  return sharedPostgres(inject('postgres'));
}
