/**
 * What the unit tests share, made once per run before any file starts:
 * - the Node doors' bundles (adapters/node/dist): the command line, MCP and package-entry tests run them as users
 *   do, and must not race each other rebuilding the same files;
 * - the real datasets they open (harness/real-fixtures.ts: the compared weeks, the weeks attachment, the rates),
 *   kept under .tmp/fixtures/ and built again only when their inputs change;
 * - one PostgreSQL server, on which each Postgres test file makes its own databases (helpers/suite-postgres.ts).
 */
import type { TestProject } from 'vitest/node';
import { buildNodeOnce } from '../../tools/build-node.ts';
import { buildRealFixturesAside } from '../../harness/build-aside.ts';
import { WEEKS_FIXTURES } from '../../harness/weeks-fixture.ts';
import { startSharedPostgres } from '../../harness/postgres.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [, fixtures, postgres] = await Promise.all([buildNodeOnce(), buildRealFixturesAside([...WEEKS_FIXTURES, 'gsa-rates']), startSharedPostgres()]);
  project.provide('postgres', postgres.shared);
  return async () => {
    fixtures.stop();
    postgres.server.stop();
  };
}
