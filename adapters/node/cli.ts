/**
 * `offline-gov-api`: the command line. `serve` answers both APIs over HTTP (and serves the built app when
 * there is one); `mcp` offers them to an MCP client over stdio. Both read the built datasets or the user's
 * own files through the same import core as the app.
 */
import { parseArgs } from 'node:util';
import { summariseReport } from '../../dataset/import/index.ts';
import { openEngine, type OpenEngineOptions } from './open-engine.ts';
import type { OpenedDataset } from './datasets.ts';
import { startServer } from './server.ts';
import { builtAppDir } from './package-root.ts';
import { serveMcpOverStdio } from './mcp.ts';
import { openPostgresAnswers, runLoad } from './postgres/commands.ts';

const HELP = `offline-gov-api: the Site Scanning and Ceiling Rates APIs, answered locally.

Usage:
  offline-gov-api serve [options]   HTTP server: both APIs (CORS open) and the built app
  offline-gov-api mcp [options]     MCP server over stdio, for AI assistants
  offline-gov-api load --database <postgres-url> [--websites <file>] [--ceilingrates <file>] [--snapshot <YYYY-MM-DD>]
                                    Load the datasets (default: the built ones) into PostgreSQL, in one transaction
  offline-gov-api --help

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
  --database <url>        Answer from PostgreSQL (postgres://user@host:port/db, loaded by \`load\`)
                          instead of datasets held in memory

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
  /** `load`: the Site Scanning snapshot's date. */
  snapshot?: string;
  port: number;
  host: string;
  app: boolean;
  delayMs: number;
  failRate: number;
  open: OpenEngineOptions;
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
        database: { type: 'string' },
        snapshot: { type: 'string' },
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
  if (values.snapshot !== undefined && command !== 'load') throw new UsageError('--snapshot is for load');
  if (command === 'serve' && values.database && (values.websites || values.ceilingrates || values.data)) {
    throw new UsageError('serve --database answers what the database holds: load files with `offline-gov-api load --database`');
  }
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
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
    open: { files, ...(values.data ? { dataDir: values.data } : {}) },
    ...(values.database ? { database: values.database } : {}),
    ...(values.snapshot !== undefined ? { snapshot: values.snapshot } : {}),
  };
}

/** What was opened, on stderr (stdout belongs to the MCP protocol in `mcp`). */
function describe(datasets: readonly OpenedDataset[]): void {
  for (const d of datasets) {
    const rows = Object.values(d.rows).reduce((a, b) => a + b, 0);
    console.error(`${d.name}: ${rows} records from ${d.origin}. ${d.label}`);
    if (d.report) console.error(summariseReport(d.report).replace(/^/gm, '  '));
  }
}

export async function main(argv: readonly string[]): Promise<void> {
  const options = parseCli(argv, process.env);
  if (options.command === 'help') {
    process.stdout.write(HELP);
    return;
  }
  if (options.command === 'load') {
    const { files, dataDir } = options.open;
    await runLoad({ database: options.database!, files: files ?? {}, ...(typeof dataDir === 'string' ? { dataDir } : {}), ...(options.snapshot ? { snapshot: options.snapshot } : {}) });
    return;
  }
  const source = options.database ? await openPostgresAnswers(options.database) : null;
  const opened = source ? null : await openEngine(options.open);
  if (opened) describe(opened.datasets);
  if (options.command === 'mcp') {
    await serveMcpOverStdio(opened!.engine);
    return;
  }
  const server = await startServer({
    engine: source ?? opened!.engine,
    appDir: options.app ? builtAppDir() : null,
    port: options.port,
    host: options.host,
    faults: { delayMs: options.delayMs, failRate: options.failRate },
    dataLabels: opened
      ? Object.fromEntries(opened.datasets.map((d) => [d.name, d.label]))
      : { websites: 'PostgreSQL, loaded by `offline-gov-api load`', ceilingrates: 'PostgreSQL, loaded by `offline-gov-api load`' },
  });
  console.error(`offline-gov-api: listening on ${server.url} (${options.app ? 'app and APIs' : 'APIs only'})`);
  if (options.delayMs || options.failRate) console.error(`faults: ${options.delayMs} ms delay, ${options.failRate} fail rate`);
  const stop = (): void => {
    void server
      .close()
      .then(() => source?.end())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
