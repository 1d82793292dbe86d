/**
 * `offline-gov-api`: the command line. `serve` answers both APIs over HTTP (and serves the built app when
 * there is one); `mcp` offers them to an MCP client over stdio. Both read the built datasets or the user's
 * own files through the same import core as the app.
 */
import { parseArgs } from 'node:util';
import { availableParallelism } from 'node:os';
import { summariseReport } from '../../dataset/import/index.ts';
import { openEngine, type OpenEngineOptions } from './open-engine.ts';
import type { DatasetSummary, ShareOptions } from './pool-protocol.ts';
import { startServer } from './server.ts';
import { builtAppDir } from './package-root.ts';
import { serveMcpOverStdio } from './mcp.ts';
import { openBackend } from './open-backend.ts';
import { DEFAULT_GRACE_MS } from './graceful-close.ts';
import { openPostgresAnswers, runLoad } from './postgres/commands.ts';
import type { ApiBackend } from './backend.ts';
import type { DataLabels } from '../../engine/openapi/documents.ts';
import { DIALECTS, parseDialect, type Dialect } from '../../engine/dialect/dialect.ts';
import { inDialect } from '../../engine/dialect/shape.ts';
// `review`: the price-list review, its own arguments and module.
import { parseReviewArgs, REVIEW_HELP, runReview } from './review-command.ts';
// `update-rates`: the ceiling rates of listed contracts from GSA's catalog, its own arguments and module.
import { parseUpdateRatesArgs, runUpdateRates, UPDATE_RATES_HELP } from './update-rates.ts';

const HELP = `offline-gov-api: the Site Scanning and Ceiling Rates APIs, answered locally.

Usage:
  offline-gov-api serve [options]   HTTP server: both APIs (CORS open) and the built app
  offline-gov-api mcp [options]     MCP server over stdio, for AI assistants
  offline-gov-api load --database <postgres-url> [--websites <file>] [--ceilingrates <file>] [--snapshot <YYYY-MM-DD>]
                                    Load the datasets (default: the built ones) into PostgreSQL, in one transaction
${REVIEW_HELP}${UPDATE_RATES_HELP}  offline-gov-api --help

Datasets (default: the built ones, from \`npm run build\`):
  --websites <file>       Site Scanning records: the snapshot CSV (site-scanning-latest.csv), its JSON,
                          or a SQLite file (.sqlite, .sqlite.gz)
  --ceilingrates <file>   Ceiling rates: the export CSV, saved API pages (JSON), or a SQLite file
  --data <dir>            Directory of built dataset files (manifest.json), default dist/data
  CSV and JSON files go through the app's import: the same normalisation, and the same report of
  rejected rows, printed at start.

serve options:
  --port <n>              Port (default 4173, or the PORT environment variable)
  --host <name>           Interface to listen on (default localhost; 0.0.0.0 for every interface)
  --no-app                Answer the APIs only; do not serve the built app
  --delay <ms>            Wait this long before every API answer (latency testing)
  --fail-rate <0..1>      Answer this share of API requests with the API's own 500 or 503
                          (resilience testing)
  --workers <n|auto>      Answer on n threads sharing one copy of the data (default auto: one per
                          core; 1 answers on the server's own thread)
  --grace <seconds>       On SIGTERM/SIGINT, wait this long for requests in flight before cutting
                          them (default 10)
  --database <url>        Answer from PostgreSQL (postgres://user@host:port/db, loaded by \`load\`)
                          instead of datasets held in memory
  --statement-timeout <s> With --database: how long one query may run before the request gets the API's
                          own 503 (default 15; millions of rates need more, see docs/deploy.md)
  --dialect <name>        interface (default): the 2.0 interface's answers; production: as production
                          answered in 2026 (its field names, types and order: docs/api/differences.md).
                          Also for mcp

load options:
  --database <url>        The PostgreSQL database (schema created or migrated as needed)
  --snapshot <date>       The Site Scanning snapshot's date (default: its latest scan date); loading the
                          same date again replaces that snapshot, another date adds one

API paths (each also under its production base path):
  GET /websites   GET /websites/{url}   GET /analysis
  GET /api/v3/search/ceilingrates/
  GET /openapi.json
  GET /snapshots/{YYYY-MM-DD}/websites …   an older Site Scanning snapshot (with --database)
`;

export interface CliOptions {
  command: 'serve' | 'mcp' | 'load' | 'help';
  /** PostgreSQL URL: `load` writes to it, `serve` answers from it. */
  database?: string;
  /** `serve --database`: milliseconds one query may run. */
  statementTimeoutMs?: number;
  /** `load`: the Site Scanning snapshot's date. */
  snapshot?: string;
  port: number;
  host: string;
  app: boolean;
  delayMs: number;
  failRate: number;
  /** Threads answering the APIs (`--workers`; `auto` is the machine's cores). */
  workers: number;
  /** How long a shutdown waits for busy connections, in ms. */
  graceMs: number;
  /** `serve`, `mcp`: the answer dialect (`--dialect`). */
  dialect: Dialect;
  /** Files and the build's directory: what a command line names (and the share process can be passed). */
  open: ShareOptions;
}

export class UsageError extends Error {}

function number(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be a number from ${min} to ${max}, not "${text}"`);
  }
  return value;
}

function integer(name: string, text: string, min: number, max: number): number {
  const value = number(name, text, min, max)!;
  if (!Number.isInteger(value)) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not "${text}"`);
  return value;
}

export function parseCli(argv: readonly string[], env: Record<string, string | undefined> = {}): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        port: { type: 'string' },
        host: { type: 'string' },
        'no-app': { type: 'boolean' },
        data: { type: 'string' },
        websites: { type: 'string' },
        ceilingrates: { type: 'string' },
        delay: { type: 'string' },
        'fail-rate': { type: 'string' },
        workers: { type: 'string' },
        grace: { type: 'string' },
        database: { type: 'string' },
        'statement-timeout': { type: 'string' },
        snapshot: { type: 'string' },
        dialect: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const command = values.help ? 'help' : (positionals[0] ?? 'serve');
  if (command !== 'serve' && command !== 'mcp' && command !== 'load' && command !== 'help') throw new UsageError(`unknown command "${command}"`);
  if (command === 'load' && !values.database) throw new UsageError('load needs --database <postgres-url>');
  if (command === 'mcp' && values.database) throw new UsageError('--database is for serve and load');
  if (values['statement-timeout'] !== undefined && (command !== 'serve' || !values.database)) {
    throw new UsageError('--statement-timeout is for serve --database');
  }
  if (values.snapshot !== undefined && command !== 'load') throw new UsageError('--snapshot is for load');
  if (command === 'serve' && values.database && (values.websites || values.ceilingrates || values.data)) {
    throw new UsageError('serve --database answers what the database holds: load files with `offline-gov-api load --database`');
  }
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
  if (values.dialect !== undefined && command !== 'serve' && command !== 'mcp') throw new UsageError('--dialect is for serve and mcp');
  if (values.dialect !== undefined && !(DIALECTS as readonly string[]).includes(values.dialect)) {
    throw new UsageError(`--dialect must be ${DIALECTS.join(' or ')}, not "${values.dialect}"`);
  }
  const files: OpenEngineOptions['files'] = {};
  if (values.websites) files.websites = values.websites;
  if (values.ceilingrates) files.ceilingrates = values.ceilingrates;
  return {
    command,
    port: number('port', values.port ?? env.PORT, 0, 65535) ?? 4173,
    host: values.host ?? 'localhost',
    app: !values['no-app'],
    delayMs: number('delay', values.delay, 0, 600_000) ?? 0,
    failRate: number('fail-rate', values['fail-rate'], 0, 1) ?? 0,
    workers: values.workers === undefined || values.workers === 'auto' ? availableParallelism() : integer('workers', values.workers, 1, 256),
    graceMs: (number('grace', values.grace, 0, 3600) ?? DEFAULT_GRACE_MS / 1000) * 1000,
    dialect: values.dialect === undefined ? 'interface' : parseDialect(values.dialect),
    open: { files, ...(values.data ? { dataDir: values.data } : {}) },
    ...(values.database ? { database: values.database } : {}),
    ...(values['statement-timeout'] !== undefined ? { statementTimeoutMs: number('statement-timeout', values['statement-timeout'], 1, 86_400)! * 1000 } : {}),
    ...(values.snapshot !== undefined ? { snapshot: values.snapshot } : {}),
  };
}

/** What was opened, on stderr (stdout belongs to the MCP protocol in `mcp`). */
function describe(datasets: readonly DatasetSummary[]): void {
  for (const d of datasets) {
    const rows = Object.values(d.rows).reduce((a, b) => a + b, 0);
    // An attachment's tables are not records: each is counted by its name.
    const what = d.attachment
      ? `${d.name}, its ${d.attachment}: ${Object.entries(d.rows)
          .map(([table, n]) => `${n} ${table}`)
          .join(', ')}`
      : `${d.name}: ${rows} records`;
    console.error(`${what} from ${d.origin}. ${d.label}`);
    if (d.report) console.error(summariseReport(d.report).replace(/^/gm, '  '));
  }
}

/** What `serve` answers from: PostgreSQL (`--database`), or the datasets held in memory on one or more threads. */
async function openServed(options: CliOptions): Promise<{ backend: ApiBackend; labels: DataLabels; close(): Promise<void> }> {
  if (options.database) {
    const source = await openPostgresAnswers(options.database, undefined, options.statementTimeoutMs);
    const label = 'PostgreSQL, loaded by `offline-gov-api load`';
    // PostgreSQL answers in the interface's shape; the production dialect is the engine's same last step over it.
    const backend: ApiBackend =
      options.dialect === 'interface'
        ? source
        : { apis: source.apis, answer: async (routed) => inDialect(source.apis, routed, await source.answer(routed), options.dialect) };
    return { backend, labels: { websites: label, ceilingrates: label }, close: () => source.end() };
  }
  const { backend, datasets, close } = await openBackend(options.open, options.workers);
  describe(datasets);
  return { backend, labels: Object.fromEntries(datasets.map((d) => [d.name, d.label])), close };
}

export async function main(argv: readonly string[]): Promise<void> {
  // `review` (review-command.ts) takes its own arguments; `review --help` is the help below.
  if (argv[0] === 'review' && !argv.some((a) => a === '--help' || a === '-h')) {
    return runReview(parseReviewArgs(argv.slice(1), (message) => new UsageError(message)));
  }
  // `update-rates` (update-rates.ts) takes its own arguments; `update-rates --help` is the help below.
  if (argv[0] === 'update-rates' && !argv.some((a) => a === '--help' || a === '-h')) {
    await runUpdateRates(parseUpdateRatesArgs(argv.slice(1), (message) => new UsageError(message)));
    return;
  }
  const options = parseCli(argv, process.env);
  if (options.command === 'help') {
    process.stdout.write(HELP);
    return;
  }
  if (options.command === 'load') {
    const { files, dataDir } = options.open;
    await runLoad({
      database: options.database!,
      files: files ?? {},
      ...(typeof dataDir === 'string' ? { dataDir } : {}),
      ...(options.snapshot ? { snapshot: options.snapshot } : {}),
    });
    return;
  }
  if (options.command === 'mcp') {
    const { engine, datasets } = await openEngine({ ...options.open, dialect: options.dialect });
    describe(datasets);
    await serveMcpOverStdio(engine, Object.fromEntries(datasets.map((d) => [d.name, d.label])));
    return;
  }
  const served = await openServed(options);
  const server = await startServer({
    engine: served.backend,
    appDir: options.app ? builtAppDir() : null,
    port: options.port,
    host: options.host,
    faults: { delayMs: options.delayMs, failRate: options.failRate },
    dataLabels: served.labels,
    graceMs: options.graceMs,
    dialect: options.dialect,
  });
  const threads = options.workers > 1 ? `${options.workers} worker threads` : 'one thread';
  const dialect = options.dialect === 'production' ? ", answering in production's dialect" : '';
  console.error(`offline-gov-api: listening on ${server.url} (${options.app ? 'app and APIs' : 'APIs only'}, ${threads}${dialect})`);
  if (options.delayMs || options.failRate) console.error(`faults: ${options.delayMs} ms delay, ${options.failRate} fail rate`);
  const stop = (signal: string): void => {
    // A second signal finds no handler left: the process ends at once, as a user pressing Ctrl-C twice expects.
    console.error(`offline-gov-api: ${signal}: finishing the answers in flight (up to ${options.graceMs / 1000} s)`);
    void server
      .close()
      .then(served.close)
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('offline-gov-api: shutdown failed', error);
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
