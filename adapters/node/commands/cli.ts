/**
 * `offline-gov-api`: the command line. `serve` answers both APIs over HTTP (and serves the built app when
 * there is one); `mcp` offers them to an MCP client over stdio. Both read the built datasets or the user's
 * own files through the same import core as the app.
 */
import { availableParallelism } from 'node:os';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { summariseReport } from '../../../dataset/import/index.ts';
import { openEngine, type OpenEngineOptions } from '../datasets/open-engine.ts';
import type { DatasetSummary, ShareOptions } from '../backends/pool-protocol.ts';
import { startServer } from '../doors/server.ts';
import { builtAppDir, builtDataDir } from '../datasets/package-root.ts';
import { builtExtras } from '../datasets/dataset-files.ts';
import { MANIFEST_FILE } from '../../../dataset/artifact/format.ts';
import { attachmentOf } from '../../../engine/dataset-registry.ts';
import { serveMcpOverStdio } from '../doors/mcp.ts';
import { openBackend } from '../backends/open-backend.ts';
import { DEFAULT_GRACE_MS } from '../doors/graceful-close.ts';
import { openPostgresAnswers, runLoad } from '../backends/postgres/commands.ts';
import type { ApiBackend } from '../backends/backend.ts';
import type { DataLabels } from '../../../engine/openapi/documents.ts';
import { DIALECTS, parseDialect, type Dialect } from '../../../engine/dialect/dialect.ts';
import { inDialect } from '../../../engine/dialect/shape.ts';
import { parseRateLimit, type RateLimit } from '../doors/gateway.ts';
import { REVIEW } from './ceilingrates-review.ts';
import { UPDATE_RATES } from './update-rates.ts';
import { FETCH_EXTRA } from './fetch-extra.ts';
import { COPY_ASSETS } from './copy-assets.ts';
import {
  helpText,
  integerOption,
  numberOption,
  parseCommandLine,
  stringOption,
  UsageError,
  type AnyCommand,
  type Command,
  type Given,
  type OptionSpec,
} from './command-line.ts';

export { UsageError };

const API_PATHS = `API paths (each also under its production base path; docs/api/):
  GET /websites   GET /websites/{url}   GET /analysis
  GET /snapshots/{YYYY-MM-DD}/websites …   an older Site Scanning week (the weeks extra, or --database)
  GET /api/v3/search/ceilingrates/
  GET /openapi.json`;

/** Every option of every command, once (adapters/node/commands/command-line.ts reads it for parsing and for --help). */
export const OPTIONS: Record<string, OptionSpec> = {
  websites: {
    type: 'string',
    value: '<file>',
    help: "Site Scanning records instead of the built ones: the snapshot CSV (site-scanning-latest.csv), its JSON, or a SQLite file (.sqlite, .sqlite.gz); CSV and JSON go through the app's import (its report is printed at start)",
  },
  ceilingrates: { type: 'string', value: '<file>', help: 'Ceiling rates instead of the built ones: the export CSV, saved API pages (JSON), or a SQLite file' },
  data: { type: 'string', value: '<dir>', help: "Directory of built dataset files (manifest.json beside them); default: the package's dist/data" },
  port: { type: 'string', value: '<n>', help: 'Port (default 4173, or the PORT environment variable)' },
  host: { type: 'string', value: '<name>', help: 'Interface to listen on (default localhost; 0.0.0.0 for every interface)' },
  'no-app': { type: 'boolean', help: 'Answer the APIs only; do not serve the built app' },
  pages: {
    type: 'string',
    value: '<dir>',
    help: "Serve this folder's files too (your prototype's pages), at the root beside the APIs; a path the built app has is the app's. Pages on the app's origin are kept by its service worker once opened, so they work offline (docs/deploy.md)",
  },
  delay: { type: 'string', value: '<ms>', help: 'Wait this long before every API answer (latency testing)' },
  'fail-rate': { type: 'string', value: '<0..1>', help: "Answer this share of API requests with the API's own 500 or 503 (resilience testing)" },
  'require-key': {
    type: 'boolean',
    help: 'Answer a Site Scanning request without a key as production\'s gateway (api.data.gov) does: 403 {"error":{"code":"API_KEY_MISSING",…}}; ceiling rates answer without one, as production\'s do. The key is the X-Api-Key header or the api_key query parameter; offline, any key is valid',
  },
  'rate-limit': {
    type: 'string',
    value: '<n/h>',
    help: 'Allow n API requests an hour per key (per client address without one), as the gateway does: X-RateLimit-Limit and X-RateLimit-Remaining on every answer, 429 {"error":{"code":"OVER_RATE_LIMIT",…}} with Retry-After beyond (production: 1000/h; also n/s, n/m, n/d). docs/api/limits.md',
  },
  workers: {
    type: 'string',
    value: '<n|auto>',
    help: "Answer on n threads sharing one copy of the data (default auto: one per core; 1 answers on the server's own thread)",
  },
  grace: { type: 'string', value: '<seconds>', help: 'On SIGTERM/SIGINT, wait this long for requests in flight before cutting them (default 10)' },
  database: {
    type: 'string',
    value: '<url>',
    help: 'PostgreSQL (postgres://user@host:port/db): serve answers from what `load` put there; load creates or migrates the schema',
  },
  'statement-timeout': {
    type: 'string',
    value: '<s>',
    help: "With --database: how long one query may run before the request gets the API's own 503 (default 15; millions of rates need more, see docs/deploy.md)",
  },
  dialect: {
    type: 'string',
    value: '<name>',
    help: "interface (default): the 2.0 interface's answers; production: as production answered in 2026 (its field names, types and order: docs/api/differences.md)",
  },
  snapshot: {
    type: 'string',
    value: '<YYYY-MM-DD>',
    help: "The Site Scanning snapshot's date (default: its latest scan date); loading the same date again replaces that snapshot, another date adds one",
  },
  format: { type: 'string', value: 'csv|json|html', help: 'The review as memo-ready CSV (default), JSON, or a printable HTML page' },
  compared: { type: 'string', value: '<file.csv>', help: 'Also write the compared rates (contract, title, price, education, experience) to this CSV file' },
  'min-comparables': { type: 'string', value: '<n>', help: 'Comparables a row needs to be judged and flagged' },
  'every-rate': { type: 'boolean', help: 'Count every rate, not one per contract, title and price (an offer under two SINs or worksites counts twice)' },
  contracts: { type: 'string', value: '<file>', help: 'The contracts to update, one contract number a line' },
  all: { type: 'boolean', help: 'Every contract the dataset holds' },
  from: { type: 'string', value: '<address>', help: 'Where to fetch from' },
};

export interface CliOptions {
  command: 'serve' | 'mcp' | 'load';
  /** PostgreSQL URL: `load` writes to it, `serve` answers from it. */
  database?: string;
  /** `serve --database`: milliseconds one query may run. */
  statementTimeoutMs?: number;
  /** `load`: the Site Scanning snapshot's date. */
  snapshot?: string;
  port: number;
  host: string;
  app: boolean;
  /** `serve --pages`: a folder of the user's own pages, absolute. */
  pagesDir: string | null;
  /** `serve --require-key`: refuse API requests without a key, as production's gateway does. */
  requireKey: boolean;
  /** `serve --rate-limit`: the gateway's limit per key. */
  rateLimit: RateLimit | null;
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

/** serve, mcp and load, as their options are read (one reader: they share the datasets' options). */
function readServing(name: CliOptions['command'], { values, env }: Given): CliOptions {
  const text = (key: string): string | undefined => stringOption(values[key]);
  if (name === 'load' && !values.database) throw new UsageError('load needs --database <postgres-url>');
  if (values['statement-timeout'] !== undefined && !values.database) throw new UsageError('--statement-timeout is for serve --database');
  if (name === 'serve' && values.database && (values.websites || values.ceilingrates || values.data)) {
    throw new UsageError('serve --database answers what the database holds: load files with `offline-gov-api load --database`');
  }
  const dialect = text('dialect');
  if (dialect !== undefined && !(DIALECTS as readonly string[]).includes(dialect))
    throw new UsageError(`--dialect must be ${DIALECTS.join(' or ')}, not "${dialect}"`);
  const pages = text('pages');
  const pagesDir = pages === undefined ? null : resolve(pages);
  if (pagesDir !== null && !(existsSync(pagesDir) && statSync(pagesDir).isDirectory())) throw new UsageError(`--pages: no folder "${pages}"`);
  const limit = text('rate-limit');
  const rateLimit = limit === undefined ? null : parseRateLimit(limit);
  if (limit !== undefined && !rateLimit) {
    throw new UsageError(`--rate-limit must be a number of requests from 1 to 1000000 per hour, such as 1000/h (or /s, /m, /d), not "${limit}"`);
  }
  const files: OpenEngineOptions['files'] = {};
  if (text('websites')) files.websites = text('websites');
  if (text('ceilingrates')) files.ceilingrates = text('ceilingrates');
  const workers = text('workers');
  const [database, timeout, snapshot, data] = [text('database'), text('statement-timeout'), text('snapshot'), text('data')];
  return {
    command: name,
    port: numberOption('port', values.port ?? env.PORT, 0, 65535) ?? 4173,
    host: text('host') ?? 'localhost',
    app: !values['no-app'],
    pagesDir,
    requireKey: !!values['require-key'],
    rateLimit,
    delayMs: numberOption('delay', values.delay, 0, 600_000) ?? 0,
    failRate: numberOption('fail-rate', values['fail-rate'], 0, 1) ?? 0,
    workers: workers === undefined || workers === 'auto' ? availableParallelism() : integerOption('workers', workers, 1, 256),
    graceMs: (numberOption('grace', values.grace, 0, 3600) ?? DEFAULT_GRACE_MS / 1000) * 1000,
    dialect: dialect === undefined ? 'interface' : parseDialect(dialect),
    open: { files, ...(data ? { dataDir: data } : {}) },
    ...(database ? { database } : {}),
    ...(timeout !== undefined ? { statementTimeoutMs: numberOption('statement-timeout', timeout, 1, 86_400)! * 1000 } : {}),
    ...(snapshot !== undefined ? { snapshot } : {}),
  };
}

const DATASET_OPTIONS = ['websites', 'ceilingrates', 'data'] as const;

const SERVE: Command<CliOptions> = {
  name: 'serve',
  positionals: 0,
  summary: 'HTTP server: both APIs (CORS open), the built app unless --no-app, and your own pages with --pages',
  options: [
    ...DATASET_OPTIONS,
    'port',
    'host',
    'no-app',
    'pages',
    'delay',
    'fail-rate',
    'require-key',
    'rate-limit',
    'workers',
    'grace',
    { name: 'database', help: 'Answer from PostgreSQL (postgres://user@host:port/db, loaded by `load`) instead of datasets held in memory' },
    'statement-timeout',
    'dialect',
  ],
  read: (given) => readServing('serve', given),
  run: (options) => runServe(options),
};

const MCP: Command<CliOptions> = {
  name: 'mcp',
  positionals: 0,
  summary: 'MCP server over stdio, for AI assistants: the APIs as four tools',
  options: [...DATASET_OPTIONS, 'dialect'],
  read: (given) => readServing('mcp', given),
  run: async (options) => {
    const { engine, datasets } = await openEngine({ ...(await withAttachmentsWhenPresent(options.open)), dialect: options.dialect });
    describe(datasets);
    await serveMcpOverStdio(engine, dataLabelsOf(datasets));
  },
};

const LOAD: Command<CliOptions> = {
  name: 'load',
  positionals: 0,
  summary: 'Load the datasets (default: the built ones) into PostgreSQL, in one transaction',
  options: [{ name: 'database', help: 'The PostgreSQL database (schema created or migrated as needed)', required: true }, ...DATASET_OPTIONS, 'snapshot'],
  read: (given) => readServing('load', given),
  run: async (options) => {
    const { files, dataDir } = options.open;
    await runLoad({
      database: options.database!,
      files: files ?? {},
      ...(typeof dataDir === 'string' ? { dataDir } : {}),
      ...(options.snapshot ? { snapshot: options.snapshot } : {}),
    });
  },
};

/** Every command, the default (what runs with no command named) first. */
export const COMMANDS: readonly AnyCommand[] = [SERVE, MCP, LOAD, REVIEW, UPDATE_RATES, FETCH_EXTRA, COPY_ASSETS];

/** serve's, mcp's or load's options from a command line (the other commands are read the same way by main). */
export function parseCli(argv: readonly string[], env: Record<string, string | undefined> = {}): CliOptions {
  const parsed = parseCommandLine(OPTIONS, COMMANDS, argv, env);
  if ('help' in parsed) throw new UsageError('--help asks for the help, not for options');
  if (![SERVE, MCP, LOAD].includes(parsed.command)) throw new UsageError(`${parsed.command.name} is not serve, mcp or load`);
  return parsed.options as CliOptions;
}

/**
 * `serve` and `mcp` answer everything the build holds: a dataset's attachment (the weeks) is opened when its file is
 * there (a clone's `npm run build`, or a package after `fetch-extra`). A library caller asks for it by name.
 */
async function withAttachmentsWhenPresent(open: ShareOptions): Promise<ShareOptions> {
  const dir = open.dataDir ?? builtDataDir();
  if (dir === false || !existsSync(resolve(dir, MANIFEST_FILE))) return open;
  const present = (await builtExtras(dir)).filter((extra) => extra.present && attachmentOf(extra.id)).map((extra) => extra.id);
  return present.length ? { ...open, extras: [...(open.extras ?? []), ...present] } : open;
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

/**
 * Each dataset's source line as the documents and the MCP tools say it: that of what answers the current snapshot,
 * never an attachment's (the weeks: "17 weeks …"), which only answers dated paths.
 */
export function dataLabelsOf(datasets: readonly DatasetSummary[]): DataLabels {
  return Object.fromEntries(datasets.filter((d) => !d.attachment).map((d) => [d.name, d.label]));
}

/** What `serve` serves, for its start line: the app only when there is a build to serve. */
export function servedParts(options: Pick<CliOptions, 'app' | 'pagesDir'>, appBuilt: boolean): string {
  const parts = [options.app && appBuilt ? 'the app' : null, options.pagesDir ? `the pages of ${options.pagesDir}` : null].filter(Boolean);
  const apis = parts.length ? `${parts.join(', ')} and both APIs` : 'both APIs only';
  return options.app && !appBuilt ? `${apis}: no built app to serve, \`npm run build\` makes one` : apis;
}

/** The gateway's rules, for the start line; null when there are none. */
function gatewayRules(options: Pick<CliOptions, 'requireKey' | 'rateLimit'>): string | null {
  const rules = [
    options.requireKey ? 'Site Scanning requires a key (X-Api-Key or api_key), else 403' : null,
    options.rateLimit ? `${options.rateLimit.limit} requests per ${windowName(options.rateLimit.windowMs)} per key, else 429` : null,
  ].filter(Boolean);
  return rules.length ? `gateway: ${rules.join('; ')}` : null;
}

function windowName(ms: number): string {
  return ({ 1_000: 'second', 60_000: 'minute', 3_600_000: 'hour', 86_400_000: 'day' } as Record<number, string>)[ms] ?? `${ms / 1000} s`;
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
  const { backend, datasets, close } = await openBackend(await withAttachmentsWhenPresent(options.open), options.workers);
  describe(datasets);
  return { backend, labels: dataLabelsOf(datasets), close };
}

export async function main(argv: readonly string[]): Promise<void> {
  const parsed = parseCommandLine(OPTIONS, COMMANDS, argv, process.env);
  if ('help' in parsed) {
    process.stdout.write(helpText(OPTIONS, COMMANDS, parsed.help, API_PATHS));
    return;
  }
  await parsed.command.run(parsed.options);
}

async function runServe(options: CliOptions): Promise<void> {
  const served = await openServed(options);
  const appDir = options.app ? builtAppDir() : null;
  const server = await startServer({
    engine: served.backend,
    appDir,
    pagesDir: options.pagesDir,
    gateway: { requireKey: options.requireKey, rateLimit: options.rateLimit },
    port: options.port,
    host: options.host,
    faults: { delayMs: options.delayMs, failRate: options.failRate },
    dataLabels: served.labels,
    graceMs: options.graceMs,
    dialect: options.dialect,
  });
  const threads = options.workers > 1 ? `${options.workers} worker threads` : 'one thread';
  const dialect = options.dialect === 'production' ? ", answering in production's dialect" : '';
  const appBuilt = appDir !== null && existsSync(resolve(appDir, 'index.html'));
  console.error(`offline-gov-api: listening on ${server.url} (${servedParts(options, appBuilt)}; ${threads}${dialect})`);
  const rules = gatewayRules(options);
  if (rules) console.error(rules);
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
