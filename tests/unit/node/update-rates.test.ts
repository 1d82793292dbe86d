/**
 * `offline-gov-api update-rates`: the bundled bin against a local catalog (node:http on 127.0.0.1) serving made-up
 * price lists in the catalog's layout (harness/price-list-xlsx.ts), over a built data directory made here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { sha256Hex, type DatasetArtifact, type Manifest } from '../../../dataset/artifact/format.ts';
import { readPriceListFile } from '../../../dataset/price-lists/read-file.ts';
import { priceListRecords } from '../../../dataset/price-lists/records.ts';
import { createCeilingRatesSchema, insertCeilingRates, writeCeilingRatesColumns } from '../../../engine/ceilingrates/schema.ts';
import { openBuiltDatasets } from '../../../adapters/node/datasets/dataset-files.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { priceListXlsx, type FixtureList } from '../../../harness/price-list-xlsx.ts';
import { generatedDatabase } from '../../../harness/engine.ts';
import { runCli } from './cli-process.ts';

/** Contract numbers no real list has, so the shipped joins know none of them: their business size is the dataset's. */
const [A, B, C] = ['TESTAA0001', 'TESTBB0002', 'TESTCC0003'];
/** A SIN of the shipped eLibrary joins, and one only the dataset's own rows know. */
const IT_SIN = '54151S';
const OWN_SIN = '999ZZZ';

const list = (contract: string, titles: string[], generated = '2025-03-01T12:00:00.000Z'): FixtureList => ({
  contract,
  vendor: `VENDOR ${contract}`,
  generated,
  rows: titles.map((title, i) => ({ title, price: 100 + i, sin: i % 2 ? OWN_SIN : IT_SIN })),
});

const BUILT = [list(A, ['Old Analyst', 'Old Engineer']), list(B, ['Old Manager', 'Old Designer']), list(C, ['Clerk', 'Writer', 'Editor'])];
/** What the catalog serves now. */
const CATALOG = [
  list(A, ['New Analyst', 'New Engineer', 'New Architect'], '2025-10-01T09:00:00.000Z'),
  list(B, ['New Manager'], '2025-10-02T09:00:00.000Z'),
  list(C, ['Clerk II'], '2025-10-03T09:00:00.000Z'),
];

let root: string;
let websitesGz: Uint8Array;
let ratesRaw: Uint8Array;
let server: Server;
let base: string;
const requests: string[] = [];

const sha = (bytes: Uint8Array): Promise<string> => sha256Hex(bytes);

/** A built data directory as the build writes it: websites, and the rates with a Brotli copy and a patch. */
async function writeBuild(): Promise<string> {
  const dir = mkdtempSync(join(root, 'data-'));
  const ratesGz = gzipSync(ratesRaw, { level: 9 });
  const ratesBr = brotliCompressSync(ratesRaw);
  const patch = new Uint8Array([1, 2, 3]);
  const files: Record<string, Uint8Array> = {
    'websites.sqlite.gz': websitesGz,
    'ceilingrates.sqlite.gz': ratesGz,
    'ceilingrates.sqlite.br': ratesBr,
    'ceilingrates-from-old.patch.br': patch,
  };
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  const synthetic = { kind: 'synthetic' as const, label: 'test websites', profile: 'test', seed: 1 };
  const rates: DatasetArtifact = {
    name: 'ceilingrates',
    file: 'ceilingrates.sqlite.gz',
    bytes: ratesGz.length,
    rawBytes: ratesRaw.length,
    sha256: await sha(ratesGz),
    rows: { ceilingrates: 7 },
    source: {
      kind: 'real',
      label: 'Real: made-up price lists, 7 hourly labor rates',
      repository: 'r',
      commit: 'c',
      date: '2025-03-01',
      licence: 'l',
      count: 7,
    },
    transfer: { file: 'ceilingrates.sqlite.br', encoding: 'br', bytes: ratesBr.length, sha256: await sha(ratesBr) },
    patches: [
      {
        from: 'f'.repeat(64),
        file: 'ceilingrates-from-old.patch.br',
        encoding: 'br',
        bytes: 3,
        sha256: await sha(patch),
        patchBytes: 3,
        resultSha256: await sha(ratesGz),
      },
    ],
  };
  const manifest: Manifest = {
    version: 'built',
    datasets: {
      websites: {
        name: 'websites',
        file: 'websites.sqlite.gz',
        bytes: websitesGz.length,
        rawBytes: 0,
        sha256: await sha(websitesGz),
        rows: {},
        source: synthetic,
      },
      ceilingrates: rates,
    },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

/** Every file of a directory with its bytes: what "unchanged" is compared on. */
const snapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name)).toString('base64')]));

const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;

async function ratesOf(dir: string): Promise<{ label: string; rows: Record<string, unknown>[] }> {
  const opened = await openBuiltDatasets(dir);
  const rates = opened.find((d) => d.name === 'ceilingrates')!;
  const result = rates.db.exec('SELECT * FROM ceilingrates ORDER BY id')[0];
  const rows = result.values.map((values) => Object.fromEntries(result.columns.map((column, i) => [column, values[i]])));
  for (const d of opened) d.db.close();
  return { label: rates.label, rows };
}

const contractsFile = (lines: string[]): string => {
  const path = join(mkdtempSync(join(root, 'list-')), 'contracts.txt');
  writeFileSync(path, lines.join('\n'));
  return path;
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'update-rates-'));
  websitesGz = gzipSync((await generatedDatabase('websites', 20)).export());
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  createCeilingRatesSchema(db);
  const lists = await Promise.all(BUILT.map((l) => readPriceListFile(priceListXlsx(l))));
  const joins = {
    category: (sin: string) => ({ [IT_SIN]: ['Information Technology', 'IT Services'] as const, [OWN_SIN]: ['Made Up', 'Only Here'] as const })[sin],
    businessSize: (contract: string) => (contract === A ? 'S' : contract === B ? 'O' : undefined),
  };
  insertCeilingRates(db, priceListRecords(lists, joins));
  writeCeilingRatesColumns(db);
  ratesRaw = db.export();
  db.close();

  const files = new Map<string, Uint8Array | string>(CATALOG.map((l) => [`/pricelist/${l.contract}/pricelist_${l.contract}.xlsx`, priceListXlsx(l)]));
  files.set('/pricelist/NOTXLSX001/pricelist_NOTXLSX001.xlsx', '<html><body>Maintenance</body></html>');
  // The file at one contract's place is another contract's list.
  files.set('/pricelist/ELSEWHERE1/pricelist_ELSEWHERE1.xlsx', priceListXlsx(CATALOG[2]));
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const body = files.get(request.url ?? '');
    if (body === undefined) {
      response.statusCode = 404;
      return response.end('<Error><Code>NoSuchKey</Code></Error>');
    }
    response.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pricelist/`;
});

afterAll(async () => {
  await new Promise((done) => server?.close(done));
  rmSync(root, { recursive: true, force: true });
});

describe('offline-gov-api update-rates', () => {
  it("replaces the listed contracts' rows with their catalog lists and leaves every other row and dataset as it was", async () => {
    const dir = await writeBuild();
    const before = await ratesOf(dir);
    const old = manifestOf(dir);
    const list = contractsFile(['# the two to update', A, '', `  ${B.slice(0, 4)}-${B.slice(4)}  # spelled with a dash`, A]);

    const { code, stderr } = await runCli(['update-rates', '--contracts', list, '--from', base, '--data', dir]);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`2 contracts from ${base}`);
    expect(stderr).toMatch(new RegExp(`[12]/2 ${A}: 3 hourly labor rows \\(VENDOR ${A}, generated 2025-10-01\\)`));
    expect(stderr).toMatch(new RegExp(`[12]/2 ${B}: 1 hourly labor rows`));
    expect(stderr).toContain('4 rates of 2 contracts replaced by 4: 7 rates');

    // Read back as `serve` reads it: sizes and sha256 against the rewritten manifest.
    const after = await ratesOf(dir);
    const manifest = manifestOf(dir);
    const rates = manifest.datasets.ceilingrates!;
    expect(manifest.version).not.toBe(old.version);
    expect(rates.rows).toEqual({ ceilingrates: 7 });
    expect(rates.patches).toBeUndefined();
    expect(rates.source).toMatchObject({ kind: 'real', count: 7 });
    expect(after.label).toMatch(
      /^Real: made-up price lists, 7 hourly labor rates; updated from GSA's catalog on \d{4}-\d{2}-\d{2} for 2 contracts \(7 rates now\)$/,
    );
    expect(manifest.datasets.websites).toEqual(old.datasets.websites);
    const raw = gunzipSync(readFileSync(join(dir, rates.file)));
    expect(Buffer.from(brotliDecompressSync(readFileSync(join(dir, rates.transfer!.file)))).equals(raw)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['manifest.json', rates.file, rates.transfer!.file, 'websites.sqlite.gz'].sort());

    const rowsOf = (rows: Record<string, unknown>[], contract: string) => rows.filter((r) => r.idv_piid === contract);
    expect(rowsOf(after.rows, C)).toEqual(rowsOf(before.rows, C));
    const newA = rowsOf(after.rows, A);
    expect(newA.map((r) => r.labor_category)).toEqual(['New Analyst', 'New Engineer', 'New Architect']);
    // The contract keeps its business size; a SIN gets the shipped pair, or the one the dataset's rows carry.
    expect(newA.map((r) => [r.business_size, r.sin, r.category, r.subcategory])).toEqual([
      ['S', IT_SIN, 'Information Technology', 'IT Services'],
      ['S', OWN_SIN, 'Made Up', 'Only Here'],
      ['S', IT_SIN, 'Information Technology', 'IT Services'],
    ]);
    expect(rowsOf(after.rows, B).map((r) => [r.labor_category, r.business_size, r._timestamp])).toEqual([['New Manager', 'O', '2025-10-02T09:00:00.000Z']]);
    // New ids after the largest kept: the other rows keep theirs.
    expect(Math.min(...[...newA, ...rowsOf(after.rows, B)].map((r) => Number(r.id)))).toBe(8);
  });

  it('leaves the dataset as it was, and says which contract failed and why, when a list is missing or is not a price list', async () => {
    const dir = await writeBuild();
    const before = snapshot(dir);
    const list = contractsFile([A, 'MISSING001', 'NOTXLSX001', 'ELSEWHERE1']);

    const { code, stderr } = await runCli(['update-rates', '--contracts', list, '--from', base, '--data', dir]);
    expect(code).toBe(1);
    expect(stderr).toContain('3 of 4 price lists could not be read');
    expect(stderr).toMatch(/MISSING001: http:\/\/127\.0\.0\.1:\d+\/pricelist\/MISSING001\/pricelist_MISSING001\.xlsx answered HTTP 404/);
    expect(stderr).toMatch(/NOTXLSX001: This file is not a GSA Catalog Platform price list \(it is not an \.xlsx workbook\)/);
    expect(stderr).toMatch(new RegExp(`ELSEWHERE1: the file at .* is the price list of contract ${C}`));
    expect(stderr).toContain(`The dataset in ${dir} is unchanged.`);
    expect(snapshot(dir)).toEqual(before);
    expect((await ratesOf(dir)).rows).toHaveLength(7);
  });

  it('with --all, updates every contract the dataset holds', async () => {
    const dir = await writeBuild();
    requests.length = 0;
    const { code, stderr } = await runCli(['update-rates', '--all', '--from', base, '--data', dir]);
    expect(code, stderr).toBe(0);
    expect(requests.sort()).toEqual([A, B, C].map((c) => `/pricelist/${c}/pricelist_${c}.xlsx`).sort());
    const { rows, label } = await ratesOf(dir);
    expect(rows.map((r) => r.labor_category).sort()).toEqual(['Clerk II', 'New Analyst', 'New Architect', 'New Engineer', 'New Manager']);
    expect(label).toMatch(/for 3 contracts \(5 rates now\)$/);
  });

  it('runs one at a time: a run in progress refuses a second, a lock left by a killed run is taken over', async () => {
    const dir = await writeBuild();
    const before = snapshot(dir);
    const list = contractsFile([C]);
    writeFileSync(join(dir, '.update-rates.lock'), String(process.pid));
    const refused = await runCli(['update-rates', '--contracts', list, '--from', base, '--data', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`another update-rates (process ${process.pid}) is updating`);
    expect(snapshot(dir)).toEqual({ ...before, '.update-rates.lock': Buffer.from(String(process.pid)).toString('base64') });

    // The process that wrote this lock has ended.
    const ended = spawnSync(process.execPath, ['-e', '']);
    writeFileSync(join(dir, '.update-rates.lock'), String(ended.pid));
    const { code, stderr } = await runCli(['update-rates', '--contracts', list, '--from', base, '--data', dir]);
    expect(code, stderr).toBe(0);
    expect(existsSync(join(dir, '.update-rates.lock'))).toBe(false);
  });

  it('refuses a run with no list, or with both a list and --all, before reading anything', async () => {
    for (const args of [['update-rates'], ['update-rates', '--all', '--contracts', 'x.txt'], ['update-rates', '--all', '--from', 'ftp://example.org/']]) {
      const { code, stderr } = await runCli([...args, '--data', root]);
      expect(code, args.join(' ')).toBe(1);
      expect(stderr).toMatch(/--contracts <file> or --all|--from must be an http/);
    }
    const bad = contractsFile(['GS-00F-0001A', 'not a contract; drop table']);
    const { code, stderr } = await runCli(['update-rates', '--contracts', bad, '--data', root]);
    expect(code).toBe(1);
    expect(stderr).toContain('line 2: "not a contract; drop table" is not a contract number');
    expect(existsSync(join(root, 'manifest.json'))).toBe(false);
  });
});
