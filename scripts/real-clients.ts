/**
 * Runs clients that others wrote for the production ceiling-rates API, unchanged except for their base URL, against
 * this app's Node server (`serve`) over 30,000 generated rates, and reports what each call gave (docs/api/real-clients.md).
 * The clients are not in this repository (their code is theirs): pass a checkout of each.
 *
 *   npx tsx scripts/real-clients.ts --us-gov-open-data-mcp <checkout of lzinga/us-gov-open-data-mcp> \
 *     [--calc-rates-module <the standalone calc-rates client module, .ts>] [--dialect interface|production|both]
 *
 * Each dialect (engine/dialect/; default both) is served by its own server, and every client runs against each.
 *
 * The client's files are copied to a temporary folder and only the production origin (`https://api.gsa.gov`) is
 * replaced by the server's; its cache is pointed at the same folder (XDG_CACHE_HOME), so nothing is left behind.
 * Exits 1 when a call fails or answers other than production would.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { createEngine } from '../engine/index.ts';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { startServer } from '../adapters/node/doors/server.ts';
import { DIALECTS, parseDialect, type Dialect } from '../engine/dialect/dialect.ts';
import { buildDatabase, datasetGenerator } from '../tools/generated-datasets.ts';

const PRODUCTION_ORIGIN = 'https://api.gsa.gov';

const { values } = parseArgs({
  options: {
    'us-gov-open-data-mcp': { type: 'string' },
    'calc-rates-module': { type: 'string' },
    records: { type: 'string', default: '30000' },
    dialect: { type: 'string', default: 'both' },
  },
});

interface Check {
  client: string;
  call: string;
  ok: boolean;
  detail: string;
}
const checks: Check[] = [];
/** Which server the checks being made ask (the dialect it answers in). */
let clientLabel = '';
function check(named: string, call: string, ok: boolean, detail: string): void {
  const client = named + clientLabel;
  checks.push({ client, call, ok, detail });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${client}: ${call} — ${detail}`);
}

/** Copy `files` (relative to `root`) into a fresh folder, the production origin replaced by `origin`. */
function copyWithOrigin(root: string, files: readonly string[], origin: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'real-client-'));
  for (const file of files) {
    cpSync(join(root, file), join(dir, file), { recursive: true });
    const text = readFileSync(join(dir, file), 'utf8');
    writeFileSync(join(dir, file), text.replaceAll(PRODUCTION_ORIGIN, origin));
  }
  return dir;
}

/** lzinga/us-gov-open-data-mcp: its standalone GSA CALC+ SDK (src/apis/gsa-calc/sdk.ts on its shared HTTP client). */
async function usGovOpenDataMcp(checkout: string, origin: string): Promise<void> {
  const client = 'us-gov-open-data-mcp gsa-calc SDK';
  const dir = copyWithOrigin(checkout, ['src/apis/gsa-calc/sdk.ts', 'src/shared/client.ts'], origin);
  process.env.XDG_CACHE_HOME = join(dir, 'cache');
  try {
    const sdk = await import(pathToFileURL(join(dir, 'src/apis/gsa-calc/sdk.ts')).href);

    const keyword = await sdk.searchCeilingRates({ keyword: 'engineer', educationLevel: 'BA|MA', priceRange: '50,150' });
    check(
      client,
      "searchCeilingRates({keyword:'engineer', educationLevel:'BA|MA', priceRange:'50,150'})",
      keyword.total > 0 && keyword.hits.length === 20 && keyword.hits.every((h: { currentPrice: number }) => h.currentPrice >= 50 && h.currentPrice <= 150),
      `total ${keyword.total}, ${keyword.hits.length} hits, median ${keyword.wageStats?.median}, std ${keyword.wageStats?.stdDeviation}`,
    );

    const exact = await sdk.searchCeilingRates({ search: 'labor_category:Program Manager', ordering: 'current_price', sort: 'desc', pageSize: 5 });
    check(
      client,
      "searchCeilingRates({search:'labor_category:Program Manager', ordering:'current_price', sort:'desc'})",
      exact.total > 0 &&
        exact.hits.every((h: { laborCategory: string }) => h.laborCategory === 'Program Manager') &&
        exact.hits[0].currentPrice >= exact.hits.at(-1).currentPrice,
      `total ${exact.total}, first ${exact.hits[0]?.currentPrice}, last ${exact.hits.at(-1)?.currentPrice}`,
    );

    const sin = await sdk.searchCeilingRates({ sin: '54151S', businessSize: 'S', securityClearance: 'no' });
    check(
      client,
      "searchCeilingRates({sin:'54151S', businessSize:'S', securityClearance:'no'})",
      sin.total > 0 && sin.hits.every((h: { sin: string; businessSize: string }) => h.sin.split(/[, ]+/).includes('54151S') && h.businessSize === 'S'),
      `total ${sin.total}; aggregations ${Object.keys(sin.aggregations ?? {}).length}, education_level_counts ${JSON.stringify(sin.aggregations?.education_level_counts?.buckets?.map((b: { key: string }) => b.key))}`,
    );

    const worksite = await sdk.searchCeilingRates({ keyword: 'engineer', worksite: 'Customer' });
    const all = await sdk.searchCeilingRates({ keyword: 'engineer' });
    check(
      client,
      "searchCeilingRates({keyword:'engineer', worksite:'Customer'})",
      worksite.total === all.total,
      `total ${worksite.total} = without the filter (${all.total}): the SDK sends filter=worksite:, which production ignores, and so does this app`,
    );

    const suggestions = await sdk.suggestValues('vendor_name', 'ab');
    check(
      client,
      "suggestValues('vendor_name', 'ab')",
      suggestions.values.length > 0,
      `${suggestions.values.length} values, first ${JSON.stringify(suggestions.values[0])}`,
    );

    const piid = keyword.hits[0]?.contractNumber;
    const contract = await sdk.getRatesByContract(piid, 50);
    check(
      client,
      `getRatesByContract('${piid}')`,
      contract.total > 0 && contract.hits.every((h: { contractNumber: string }) => h.contractNumber === piid),
      `total ${contract.total}`,
    );
  } catch (error) {
    check(client, 'import and calls', false, String(error instanceof Error ? error.stack : error));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A standalone CALC+ v3 client module (`fetchCalcRates`, `calcRateStats`, `calcRateStatsBulk`: keyword search, then
 * min/median/max of the hits' `current_price`) that a wage-benchmarks application uses; plain `fetch`, no dependency.
 */
async function calcRatesModule(file: string, origin: string): Promise<void> {
  const client = 'calc-rates module';
  const dir = mkdtempSync(join(tmpdir(), 'real-client-'));
  const copy = join(dir, 'calc-rates.ts');
  writeFileSync(copy, readFileSync(file, 'utf8').replaceAll(PRODUCTION_ORIGIN, origin));
  try {
    const module = await import(pathToFileURL(copy).href);
    const categories = ['Program Manager', 'Registered Nurse', 'Network Engineer', 'Special Event Set-Up'];
    const stats: Map<string, { count: number; min: number; median: number; max: number; sample: { labor_category: string }[] } | null> =
      await module.calcRateStatsBulk(categories, { deadlineMs: 60_000 });
    for (const category of categories) {
      const s = stats.get(category);
      const relevant = s?.sample.every((r) => r.labor_category.toLowerCase().includes(category.toLowerCase())) ?? false;
      check(
        client,
        `calcRateStats('${category}')`,
        !!s && s.count > 0 && s.min <= s.median && s.median <= s.max && relevant,
        s ? `${s.count} rates, min ${s.min}, median ${s.median}, max ${s.max}; every sample's labor category contains the keyword: ${relevant}` : 'no answer',
      );
    }
  } catch (error) {
    check(client, 'import and calls', false, String(error instanceof Error ? error.stack : error));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const checkout = values['us-gov-open-data-mcp'];
  if (!checkout) {
    console.error('usage: npx tsx scripts/real-clients.ts --us-gov-open-data-mcp <checkout> [--records 30000]');
    process.exit(2);
  }
  const dialects: readonly Dialect[] = values.dialect === 'both' ? DIALECTS : [parseDialect(values.dialect)];
  const SQL = await loadSqlJs();
  const engine = createEngine();
  engine.use('ceilingrates', buildDatabase(SQL, datasetGenerator('ceilingrates'), Number(values.records)));
  for (const dialect of dialects) {
    const server = await startServer({ engine, port: 0, appDir: null, dialect });
    console.log(`serve --dialect ${dialect}: ${server.url} (${values.records} generated rates)`);
    clientLabel = ` (${dialect} dialect)`;
    try {
      await usGovOpenDataMcp(checkout, server.url);
      if (values['calc-rates-module']) await calcRatesModule(values['calc-rates-module'], server.url);
    } finally {
      await server.close();
    }
  }
  const failed = checks.filter((c) => !c.ok).length;
  console.log(`${checks.length - failed} of ${checks.length} calls answered as production would`);
  process.exit(failed ? 1 : 0);
}

await main();
