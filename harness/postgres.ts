/**
 * A throwaway PostgreSQL 15 server for tests and benchmarks: Debian's binaries (`apt-get install postgresql`),
 * a fresh cluster in a temporary directory owned by the `postgres` OS user (initdb refuses to run as root),
 * listening on a free localhost port with its unix socket inside that directory, stopped and deleted after.
 * No mock database: the Postgres backend is tested against the real thing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** A fresh database on this server (each test file gets its own), as a connection URL. */
  createDatabase(name: string): string;
  stop(): void;
  /** Stop without deleting the cluster, and start it again: a database that goes away and comes back. */
  pause(): void;
  resume(): void;
}

export function postgresAvailable(): boolean {
  return existsSync(join(PG_BIN, 'initdb'));
}

/** Run a command as the `postgres` user when we are root (CI and these machines run as root). */
function asPostgres(command: string, args: readonly string[]): void {
  const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, [...args]];
  const result = spawnSync(file, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`);
}

function postgresIds(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/** Where the unit suite's one server listens (its global setup starts it: tests/unit/global-setup.ts). */
export interface SharedPostgres {
  port: number;
  /** The cluster's directory: its unix socket is there. */
  root: string;
}

let created = 0;

/**
 * A handle on the unit suite's one PostgreSQL server: each test file makes its own databases on it (named apart, so
 * two files at once never meet), and stopping the handle leaves the server to the suite. A test that must stop the
 * server under a backend starts a private one with startPostgres().
 */
export function sharedPostgres(shared: SharedPostgres): ThrowawayPostgres {
  const { port, root } = shared;
  const cannot = (): never => {
    throw new Error('the suite shares this server: startPostgres() for one a test may pause');
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    createDatabase(name) {
      const unique = `${name}_${process.pid}_${++created}`;
      asPostgres(join(PG_BIN, 'createdb'), ['-h', root, '-p', String(port), '-U', 'postgres', unique]);
      return `postgres://postgres@127.0.0.1:${port}/${unique}`;
    },
    pause: cannot,
    resume: cannot,
    stop() {},
  };
}

/** The cluster's directory beside its handle, for the global setup that shares it. */
export async function startSharedPostgres(): Promise<{ server: ThrowawayPostgres; shared: SharedPostgres }> {
  const server = await startPostgres();
  return { server, shared: { port: server.port, root: server.root } };
}

export async function startPostgres(): Promise<ThrowawayPostgres & { root: string }> {
  if (!postgresAvailable()) throw new Error(`no PostgreSQL at ${PG_BIN}: apt-get install postgresql`);
  const root = mkdtempSync(join(tmpdir(), 'offline-gov-pg-'));
  chmodSync(root, 0o755);
  if (process.getuid?.() === 0) {
    const { uid, gid } = postgresIds();
    chownSync(root, uid, gid);
  }
  const data = join(root, 'data');
  const port = await freePort();
  // C locale and UTF-8: the same byte order as the engine wherever a query forgets its COLLATE "C".
  asPostgres(join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const start = (): void => asPostgres(join(PG_BIN, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(root, 'log'), '-w', 'start']);
  const stopServer = (): void => asPostgres(join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    port,
    root,
    createDatabase(name) {
      asPostgres(join(PG_BIN, 'createdb'), ['-h', root, '-p', String(port), '-U', 'postgres', name]);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    pause: stopServer,
    resume: start,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        stopServer();
      } catch {
        // Already stopped (a test paused it): the directory still goes.
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
