/**
 * `offline-gov-api update-rates --contracts <file> | --all [--from <base URL>] [--data <dir>]`: the listed contracts'
 * price lists downloaded from GSA's catalog, their rows replacing those contracts' rows in the ceiling-rates dataset
 * of a built data directory (the one `serve` reads). The new files are written beside the old under new names,
 * checked, and the manifest is swapped in by one rename: until then, and after any failure, the old dataset is
 * what the directory holds (docs/api/data-sources.md, "Updating the rates from GSA's catalog").
 */
import { existsSync } from 'node:fs';
import { open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { Database } from 'sql.js';
import { MANIFEST_FILE, sha256Hex, type DatasetArtifact, type DatasetSource, type Manifest } from '../../../dataset/artifact/format.ts';
import { checkManifest, manifestVersion } from '../../../dataset/artifact/manifest.ts';
import { verifyArtifact } from '../../../dataset/artifact/verify.ts';
import { unpack } from '../../../dataset/artifact/unpack.ts';
import { countRows } from '../../../dataset/sqlite-catalogue.ts';
import { MAX_PRICE_LIST_BYTES, readPriceListFile } from '../../../dataset/price-lists/read-file.ts';
import { priceListRecords, sinCodes, type PriceListJoins } from '../../../dataset/price-lists/records.ts';
import { contractKey, PRICE_LISTS_FILE, shippedJoins, type ShippedPriceLists } from '../../../dataset/price-lists/shipped.ts';
import type { PriceList } from '../../../dataset/price-lists/sheet.ts';
import { CEILINGRATES_TABLE } from '../../../engine/ceilingrates/record.ts';
import { insertCeilingRates, writeCeilingRatesColumns } from '../../../engine/ceilingrates/schema.ts';
import { loadSqlJs } from '../datasets/sqljs-node.ts';
import { stringOption, UsageError, type Command } from './command-line.ts';
import { artifactOf, packDatabase, transferFileName } from '../datasets/dataset-writer.ts';
import { takeProcessLock } from '../datasets/process-lock.ts';
import { builtDataDir, packageRoot } from '../datasets/package-root.ts';

export const GSA_CATALOG = 'https://catalog-library-prod.s3-fips.us-east-1.amazonaws.com/pricelist/';

/** Bounds on what one run reads: the dataset holds 1,948 contracts; a list file is a few characters a line. */
export const LIMITS = {
  contracts: 5_000,
  contractsFileBytes: 1024 * 1024,
  listBytes: MAX_PRICE_LIST_BYTES,
  /** One download, from request to last byte. */
  timeoutMs: 60_000,
  concurrency: 4,
  /** Failures reported before the run stops asking for more: a catalog that is down fails them all. */
  failures: 10,
};

export interface UpdateRatesOptions {
  contractsFile?: string;
  all: boolean;
  from: string;
  dataDir?: string;
}

/** `update-rates`, as the command line reads it (adapters/node/commands/command-line.ts). */
export const UPDATE_RATES: Command<UpdateRatesOptions> = {
  name: 'update-rates',
  positionals: 0,
  summary:
    "Replace those contracts' ceiling rates (--all: every contract the dataset holds) with their price lists from GSA's catalog, in the built data directory (default: the package's dist/data); the old dataset stays until the new is complete",
  options: ['contracts', 'all', { name: 'from', help: `The catalog's base URL (default ${GSA_CATALOG})` }, 'data'],
  read({ values }) {
    const contracts = stringOption(values.contracts);
    if (Boolean(contracts) === Boolean(values.all)) throw new UsageError('update-rates needs --contracts <file> or --all (one of them)');
    const from = stringOption(values.from) ?? GSA_CATALOG;
    let protocol: string;
    try {
      protocol = new URL(from).protocol;
    } catch {
      throw new UsageError(`--from must be a URL, not "${from}"`);
    }
    if (protocol !== 'https:' && protocol !== 'http:') throw new UsageError(`--from must be an http: or https: URL, not "${from}"`);
    const dataDir = stringOption(values.data);
    return { all: Boolean(values.all), from, ...(contracts ? { contractsFile: contracts } : {}), ...(dataDir ? { dataDir } : {}) };
  },
  run: (options) => runUpdateRates(options).then(() => undefined),
};

/** Contract numbers as the catalog's paths and the joins spell them (`GS-00F-0004X` is `GS00F0004X`). */
const CONTRACT = /^[A-Z0-9]{4,20}$/;

/** One contract number a line; blank lines and `#` comments ignored; duplicates once. */
export function parseContracts(text: string, fail: (message: string) => Error): string[] {
  const keys = new Set<string>();
  text.split(/\r?\n/).forEach((line, i) => {
    const word = line.replace(/#.*/, '').trim();
    if (word === '') return;
    const key = contractKey(word);
    if (!CONTRACT.test(key)) throw fail(`line ${i + 1}: "${word.slice(0, 40)}" is not a contract number`);
    keys.add(key);
  });
  if (keys.size === 0) throw fail('the contracts file names no contract');
  if (keys.size > LIMITS.contracts) throw fail(`the contracts file names ${keys.size} contracts; one run takes at most ${LIMITS.contracts}`);
  return [...keys];
}

export const priceListUrl = (base: string, contract: string): string =>
  new URL(`${encodeURIComponent(contract)}/pricelist_${encodeURIComponent(contract)}.xlsx`, base.endsWith('/') ? base : `${base}/`).href;

/** The body, refused past `max` bytes whatever the server says its length is. */
async function boundedBody(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > max) throw new Error(`the file is ${(declared / 1048576).toFixed(1)} MB; a price list is read up to ${max / 1048576} MB`);
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const part of response.body ?? []) {
    length += part.length;
    if (length > max) throw new Error(`the file is larger than ${max / 1048576} MB; a price list is read up to that`);
    parts.push(part);
  }
  return new Uint8Array(Buffer.concat(parts));
}

/** One contract's price list from the catalog, read and checked to be that contract's. */
async function downloadList(base: string, contract: string): Promise<PriceList> {
  const url = priceListUrl(base, contract);
  const signal = AbortSignal.timeout(LIMITS.timeoutMs);
  let bytes: Uint8Array;
  try {
    const response = await fetch(url, { signal, redirect: 'follow' });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`${url} answered HTTP ${response.status}`);
    }
    bytes = await boundedBody(response, LIMITS.listBytes);
  } catch (error) {
    if (signal.aborted) throw new Error(`${url} did not arrive within ${LIMITS.timeoutMs / 1000} s`);
    const cause = (error as Error & { cause?: Error }).cause;
    throw new Error(cause && !(error as Error).message.includes(url) ? `${url}: ${cause.message}` : (error as Error).message);
  }
  // readPriceListFile's message ends "Nothing was changed.": the run says so itself, once, at the end.
  const list = await readPriceListFile(bytes).catch((error: Error) => {
    throw new Error(error.message.replace(/ Nothing was changed\.$/, ''));
  });
  if (contractKey(list.contract) !== contract) throw new Error(`the file at ${url} is the price list of contract ${list.contract}`);
  return list;
}

interface Failure {
  contract: string;
  reason: string;
}

/** Every contract's list, a few at a time, in the contracts' order; stops asking once LIMITS.failures have failed. */
async function downloadAll(base: string, contracts: readonly string[], log: (line: string) => void): Promise<{ lists: PriceList[]; failures: Failure[] }> {
  const lists: (PriceList | undefined)[] = [];
  const failures: Failure[] = [];
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < contracts.length && failures.length < LIMITS.failures) {
      const at = next++;
      const contract = contracts[at];
      try {
        const list = await downloadList(base, contract);
        lists[at] = list;
        log(`${++done}/${contracts.length} ${contract}: ${list.rows.length} hourly labor rows (${list.vendor}, generated ${list.generated})`);
      } catch (error) {
        failures.push({ contract, reason: (error as Error).message });
        log(`${++done}/${contracts.length} ${contract}: FAILED: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LIMITS.concurrency, contracts.length) }, worker));
  return { lists: lists.filter((list): list is PriceList => list !== undefined), failures };
}

/** The joins the default rates were built with (data/ beside the package), when the package has them. */
async function shippedJoinTables(): Promise<Pick<ShippedPriceLists, 'sins' | 'businessSize'> | null> {
  const path = resolve(packageRoot(), 'data', PRICE_LISTS_FILE);
  if (!existsSync(path)) return null;
  const { sins, businessSize } = JSON.parse(brotliDecompressSync(await readFile(path)).toString('utf8')) as ShippedPriceLists;
  return { sins, businessSize };
}

/**
 * A contract keeps the business size its rows have; a SIN gets the eLibrary pair the build joined (else the pair
 * the dataset's single-SIN rows carry); what neither knows is ''.
 */
async function joinsFor(db: Database): Promise<PriceListJoins> {
  const sizes = new Map<string, 'S' | 'O'>();
  const pairs = new Map<string, [string, string]>();
  const rows = db.exec(`SELECT DISTINCT idv_piid, business_size, sin, category, subcategory FROM ${CEILINGRATES_TABLE}`)[0]?.values ?? [];
  for (const [contract, size, sin, category, subcategory] of rows as string[][]) {
    if (size === 'S' || size === 'O') sizes.set(contractKey(contract), size);
    if (category && sinCodes(sin).length === 1) pairs.set(sin, [category, subcategory]);
  }
  const shipped = await shippedJoinTables();
  const built = shipped ? shippedJoins(shipped) : null;
  return {
    category: (sin) => built?.category(sin) ?? pairs.get(sin),
    businessSize: (contract) => sizes.get(contractKey(contract)) ?? built?.businessSize(contract),
  };
}

/** The contracts the dataset holds, as keys. */
function heldContracts(db: Database): string[] {
  const rows = db.exec(`SELECT DISTINCT idv_piid FROM ${CEILINGRATES_TABLE} ORDER BY idv_piid`)[0]?.values ?? [];
  return [...new Set(rows.map(([contract]) => contractKey(String(contract))))].filter((key) => CONTRACT.test(key));
}

/** The listed contracts' rows replaced by their lists' (new ids after the largest), the column table written again. */
function replaceContracts(db: Database, contracts: readonly string[], lists: readonly PriceList[], joins: PriceListJoins): { removed: number; added: number } {
  const replaced = new Set(contracts);
  const held = (db.exec(`SELECT DISTINCT idv_piid FROM ${CEILINGRATES_TABLE}`)[0]?.values ?? []).map(([c]) => String(c));
  const statement = db.prepare(`DELETE FROM ${CEILINGRATES_TABLE} WHERE idv_piid = ?`);
  let removed = 0;
  try {
    for (const contract of held) {
      if (!replaced.has(contractKey(contract))) continue;
      statement.run([contract]);
      removed += db.getRowsModified();
    }
  } finally {
    statement.free();
  }
  const maxId = Number(db.exec(`SELECT COALESCE(MAX(id), 0) FROM ${CEILINGRATES_TABLE}`)[0].values[0][0]);
  const records = priceListRecords(lists, joins, maxId + 1);
  insertCeilingRates(db, records);
  writeCeilingRatesColumns(db);
  // Compacted in the page size the build chose for it (VACUUM keeps the database's own).
  db.run('VACUUM');
  return { removed, added: records.length };
}

const day = (date: Date): string => date.toISOString().slice(0, 10);
const UPDATED = /; updated from GSA's catalog on .*$/;

function updatedSource(source: DatasetSource, contracts: number, count: number, now: Date): DatasetSource {
  const rates = `${count.toLocaleString('en-US')} rates now`;
  const label = `${source.label.replace(UPDATED, '')}; updated from GSA's catalog on ${day(now)} for ${contracts} contract${contracts === 1 ? '' : 's'} (${rates})`;
  return source.kind === 'real' ? { ...source, label, count } : { ...source, label };
}

/** Written under a temporary name first, so a name in the directory never holds half a file. */
async function writeWhole(path: string, bytes: Uint8Array | string): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}`;
  await writeFile(temporary, bytes);
  await rename(temporary, path);
}

/** One run at a time per directory: two would each swap in a manifest without the other's contracts. */
function lockDirectory(dir: string): Promise<() => Promise<void>> {
  return takeProcessLock(resolve(dir, '.update-rates.lock'), {
    busy: (holder) => new Error(`another update-rates (process ${holder}) is updating ${dir}`),
  });
}

export interface UpdateRatesResult {
  dir: string;
  contracts: number;
  removed: number;
  added: number;
  rows: number;
  artifact: DatasetArtifact;
}

export async function runUpdateRates(
  options: UpdateRatesOptions,
  log: (line: string) => void = (line) => console.error(`update-rates: ${line}`),
  now = new Date(),
): Promise<UpdateRatesResult> {
  const fail = (message: string): Error => new Error(message);
  const dir = resolve(options.dataDir ?? builtDataDir());
  // The list first: a mistake in it is said before anything is read or downloaded.
  let listed: string[] | null = null;
  if (options.contractsFile) {
    const handle = await open(options.contractsFile, 'r');
    try {
      if ((await handle.stat()).size > LIMITS.contractsFileBytes) throw fail(`${options.contractsFile} is larger than ${LIMITS.contractsFileBytes / 1024} KB`);
      listed = parseContracts(await handle.readFile('utf8'), (message) => fail(`${options.contractsFile}: ${message}`));
    } finally {
      await handle.close();
    }
  }
  const manifestPath = resolve(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath)) throw fail(`no ${MANIFEST_FILE} in ${dir}: build the data first (npm run build), or pass --data <dir>`);
  const unlock = await lockDirectory(dir);
  let db: Database | undefined;
  /** Files this run wrote that no manifest names yet: removed if it fails before the swap. */
  const written: string[] = [];
  try {
    const manifest = checkManifest(JSON.parse(await readFile(manifestPath, 'utf8')), manifestPath);
    const old = manifest.datasets.ceilingrates;
    if (!old) throw fail(`${manifestPath} has no ceiling-rates dataset`);
    const gz = new Uint8Array(await readFile(resolve(dir, old.file)));
    await verifyArtifact(gz, old);
    db = new (await loadSqlJs()).Database(await unpack(gz, old.rawBytes));
    const contracts = listed ?? heldContracts(db);
    if (contracts.length > LIMITS.contracts) throw fail(`the dataset holds ${contracts.length} contracts; one run takes at most ${LIMITS.contracts}`);
    const before = countRows(db, [CEILINGRATES_TABLE])[CEILINGRATES_TABLE];
    log(`${contracts.length} contract${contracts.length === 1 ? '' : 's'} from ${options.from}, into ${resolve(dir, old.file)} (${before} rates)`);

    const { lists, failures } = await downloadAll(options.from, contracts, log);
    if (failures.length) {
      const stopped = failures.length >= LIMITS.failures && lists.length + failures.length < contracts.length ? ' (stopped asking after that many)' : '';
      const lines = failures.map((f) => `  ${f.contract}: ${f.reason}`).join('\n');
      throw fail(`${failures.length} of ${contracts.length} price lists could not be read${stopped}:\n${lines}\nThe dataset in ${dir} is unchanged.`);
    }

    const { removed, added } = replaceContracts(db, contracts, lists, await joinsFor(db));
    const rows = countRows(db, [CEILINGRATES_TABLE]);
    const raw = db.export();
    db.close();
    db = undefined;

    // As the build writes it: the gzip'd file, and the transfer copy when the old one had one.
    const { patches: _patches, transfer: oldTransfer, ...rest } = old;
    const packed = await packDatabase(raw, Boolean(oldTransfer));
    // New names: the manifest in place still names the old files, which stay whole until it is swapped.
    const file = `ceilingrates-${(await sha256Hex(packed.gz)).slice(0, 12)}.sqlite.gz`;
    const source = updatedSource(old.source, contracts.length, rows[CEILINGRATES_TABLE], now);
    const artifact: DatasetArtifact = { ...rest, ...(await artifactOf({ name: old.name, file, rawBytes: raw.length, rows, source }, packed)) };
    // A name the old manifest holds already holds these bytes (the same records again): left as it is.
    const writeNew = async (name: string, bytes: Uint8Array): Promise<void> => {
      if (name === old.file || name === oldTransfer?.file) return;
      written.push(resolve(dir, name));
      await writeWhole(resolve(dir, name), bytes);
    };
    await writeNew(file, packed.gz);
    if (packed.br) await writeNew(transferFileName(file), packed.br);
    await verifyWritten(dir, artifact, raw);

    const next: Manifest = { ...manifest, datasets: { ...manifest.datasets, ceilingrates: artifact } };
    next.version = await manifestVersion(next);
    await writeWhole(manifestPath, JSON.stringify(next, null, 2) + '\n');
    written.length = 0;
    // The old files, now that no manifest names them.
    const named = new Set(
      [...Object.values(next.datasets), ...(next.extras ?? [])].flatMap((a) => [a!.file, a!.transfer?.file, ...(a!.patches ?? []).map((p) => p.file)]),
    );
    for (const stale of [old.file, oldTransfer?.file, ...(old.patches ?? []).map((p) => p.file)]) {
      if (stale && !named.has(stale)) await rm(resolve(dir, stale), { force: true });
    }
    log(
      `${removed} rates of ${contracts.length} contracts replaced by ${added}: ${rows[CEILINGRATES_TABLE]} rates in ${resolve(dir, file)} (manifest ${next.version})`,
    );
    return { dir, contracts: contracts.length, removed, added, rows: rows[CEILINGRATES_TABLE], artifact };
  } finally {
    db?.close();
    for (const path of written) await rm(path, { force: true });
    await unlock();
  }
}

/** The files as written, read back and checked as `serve` and the app check them, before the manifest names them. */
async function verifyWritten(dir: string, artifact: DatasetArtifact, raw: Uint8Array): Promise<void> {
  const gz = new Uint8Array(await readFile(resolve(dir, artifact.file)));
  await verifyArtifact(gz, artifact);
  const SQL = await loadSqlJs();
  const db = new SQL.Database(await unpack(gz, artifact.rawBytes));
  try {
    const rows = countRows(db, [CEILINGRATES_TABLE])[CEILINGRATES_TABLE];
    if (rows !== artifact.rows[CEILINGRATES_TABLE]) throw new Error(`${artifact.file} holds ${rows} rates, not ${artifact.rows[CEILINGRATES_TABLE]}`);
  } finally {
    db.close();
  }
  if (artifact.transfer) {
    const br = new Uint8Array(await readFile(resolve(dir, artifact.transfer.file)));
    if (br.length !== artifact.transfer.bytes || (await sha256Hex(br)) !== artifact.transfer.sha256)
      throw new Error(`${artifact.transfer.file} is not as written`);
    if (!Buffer.from(brotliDecompressSync(br)).equals(raw)) throw new Error(`${artifact.transfer.file} does not decode to the database`);
  }
}
