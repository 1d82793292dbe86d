/**
 * Builds data/ceilingrates-gsa-mas-2025.json.br from GSA's Catalog Platform price lists as committed to
 * matthewbaumeister/PSAI-Website @ ce95307d (`data/gsa_pricing/<contract>_pricelist.xlsx`), joined with GSA
 * eLibrary's per-SIN contractor lists beside them (`data/gsa_schedules/GSA_MAS_<SIN>_20251105.xlsx`). Only those
 * two folders are read; only facts are extracted (sheet.ts says which cells).
 *   tsx tools/price-lists/extract.ts --repo <bare git directory of the repository>
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants } from 'node:zlib';
import { readSheet } from 'read-excel-file/universal';
import { readPriceListFile } from '../../dataset/price-lists/read-file.ts';
import { PRICE_LISTS_FILE, SHIPPED_ROW_FIELDS, contractKey, shippedJoins, toShippedList, type ShippedPriceLists } from '../../dataset/price-lists/shipped.ts';
import { priceListRecords, sinCodes } from '../../dataset/price-lists/records.ts';
import { PriceListError, type PriceList } from '../../dataset/price-lists/sheet.ts';
import { sha256Hex } from '../../dataset/artifact/format.ts';
import { PRICE_LISTS_SOURCE } from './source.ts';

const { values } = parseArgs({ options: { repo: { type: 'string' } } });
if (!values.repo) throw new Error('--repo <bare git directory of matthewbaumeister/PSAI-Website> is required');
const repo = values.repo;
const { commit } = PRICE_LISTS_SOURCE;

const git = (args: string[], input?: string): Buffer => execFileSync('git', ['-C', repo, ...args], { input, maxBuffer: 1 << 30 });

/** `path → blob` of the files directly in a folder of the commit whose names match. */
function blobs(folder: string, name: RegExp): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of git(['ls-tree', '-z', commit, `${folder}/`])
    .toString('utf8')
    .split('\0')) {
    const [meta, path] = entry.split('\t');
    if (path && meta.split(' ')[1] === 'blob' && name.test(path.slice(folder.length + 1))) found.set(path, meta.split(' ')[2]);
  }
  return found;
}

/** Blob contents in one `git cat-file --batch`, by path; a blob the snapshot lacks is left out. */
function contents(files: Map<string, string>): { read: Map<string, Uint8Array>; missing: string[] } {
  const paths = [...files.keys()].sort();
  const out = git(['cat-file', '--batch'], paths.map((p) => files.get(p)).join('\n') + '\n');
  const read = new Map<string, Uint8Array>();
  const missing: string[] = [];
  let at = 0;
  for (const path of paths) {
    const lineEnd = out.indexOf(10, at);
    const header = out.subarray(at, lineEnd).toString().split(' ');
    if (header[1] === 'missing') {
      missing.push(path);
      at = lineEnd + 1;
      continue;
    }
    const size = Number(header[2]);
    read.set(path, out.subarray(lineEnd + 1, lineEnd + 1 + size));
    at = lineEnd + 1 + size + 1;
  }
  return { read, missing };
}

const squeeze = (cell: unknown): string => (typeof cell === 'string' ? cell.replace(/\s+/g, ' ').trim() : '');

/** eLibrary's SIN lists: each SIN's category pair and each contract's size marks. */
async function readSchedules(): Promise<{ sins: ShippedPriceLists['sins']; sizes: Map<string, { S: number; O: number }>; files: number }> {
  const { read } = contents(blobs('data/gsa_schedules', /^GSA_MAS_.+_\d{8}\.xlsx$/));
  const sins: ShippedPriceLists['sins'] = {};
  const sizes = new Map<string, { S: number; O: number }>();
  for (const [path, bytes] of read) {
    const rows = await readSheet(new Uint8Array(bytes).buffer);
    const head = rows[0].map(squeeze);
    const marks = rows[1].map(squeeze);
    const col = {
      large: head.indexOf('Large Category'),
      sub: head.indexOf('Sub Category'),
      sin: head.indexOf('Category'),
      contract: head.indexOf('Contact #'),
    };
    const small = marks.indexOf('Small Business');
    const other = marks.indexOf('Other Than Small Business');
    if (Object.values(col).some((i) => i < 0) || small < 0 || other < 0) throw new Error(`${path}: not an eLibrary SIN list`);
    for (const row of rows.slice(2)) {
      const contract = squeeze(row[col.contract]);
      const sin = squeeze(row[col.sin]);
      if (!contract || !sin) continue;
      sins[sin] ??= [squeeze(row[col.large]), squeeze(row[col.sub])];
      const size = sizes.get(contractKey(contract)) ?? { S: 0, O: 0 };
      if (squeeze(row[small]).toLowerCase() === 's') size.S++;
      if (squeeze(row[other]).toLowerCase() === 'o') size.O++;
      sizes.set(contractKey(contract), size);
    }
  }
  return { sins, sizes, files: read.size };
}

async function main(): Promise<void> {
  const started = performance.now();
  const pricing = blobs('data/gsa_pricing', /^.+_pricelist\.xlsx$/);
  const { read, missing } = contents(pricing);
  const lists: PriceList[] = [];
  const unreadable: string[] = [];
  for (const [path, bytes] of read) {
    try {
      lists.push(await readPriceListFile(bytes));
    } catch (error) {
      if (!(error instanceof PriceListError)) throw error;
      unreadable.push(`${path}: ${error.message}`);
    }
  }
  lists.sort((a, b) => (a.contract < b.contract ? -1 : a.contract > b.contract ? 1 : 0));
  const schedules = await readSchedules();

  const businessSize: ShippedPriceLists['businessSize'] = {};
  let bothMarks = 0;
  for (const list of lists) {
    const size = schedules.sizes.get(contractKey(list.contract));
    if (!size || size.S + size.O === 0) continue;
    if (size.S && size.O) bothMarks++;
    // A contract marked both ways in different SIN lists takes the mark most of its lists give (small on a tie).
    businessSize[contractKey(list.contract)] = size.S >= size.O ? 'S' : 'O';
  }
  const usedSins = new Set(lists.flatMap((l) => l.rows.flatMap((r) => sinCodes(r.sin))));
  const sins = Object.fromEntries(
    [...usedSins]
      .sort()
      .filter((s) => schedules.sins[s])
      .map((s) => [s, schedules.sins[s]]),
  );
  const shipped: ShippedPriceLists = { rowFields: SHIPPED_ROW_FIELDS, sins, businessSize, lists: lists.map(toShippedList) };

  const rows = lists.reduce((n, l) => n + l.rows.length, 0);
  const withRows = lists.filter((l) => l.rows.length > 0);
  const noSize = withRows.filter((l) => !businessSize[contractKey(l.contract)]);
  const noSizeRows = noSize.reduce((n, l) => n + l.rows.length, 0);
  const noCategoryRows = priceListRecords(lists, shippedJoins({ sins, businessSize })).filter((r) => r.category === '').length;
  const prices = lists.flatMap((l) => l.rows.map((r) => r.price)).sort((a, b) => a - b);
  const dates = lists.map((l) => l.generated).sort();

  const json = Buffer.from(JSON.stringify(shipped));
  const br = brotliCompressSync(json, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: json.length },
  });
  writeFileSync(`data/${PRICE_LISTS_FILE}`, br);

  const report = {
    files: pricing.size,
    missing: missing.map((p) => p.slice(p.lastIndexOf('/') + 1)),
    unreadable,
    lists: lists.length,
    contractsWithRows: withRows.length,
    vendors: new Set(withRows.map((l) => l.vendor)).size,
    rows,
    medianPrice: prices[prices.length >> 1],
    generated: [dates[0], dates[dates.length - 1]],
    scheduleFiles: schedules.files,
    contractsWithoutBusinessSize: noSize.length,
    rowsWithoutBusinessSize: noSizeRows,
    contractsMarkedBothSizes: bothMarks,
    rowsWithoutCategory: noCategoryRows,
  };
  const sources = JSON.parse(readFileSync('data/sources.json', 'utf8')) as Record<string, unknown>;
  sources[PRICE_LISTS_FILE] = {
    ...PRICE_LISTS_SOURCE,
    date: report.generated[1],
    from: report.generated[0],
    files: report.files,
    missing: report.missing,
    count: rows,
    contracts: report.contractsWithRows,
    vendors: report.vendors,
    rowsWithoutBusinessSize: noSizeRows,
    rowsWithoutCategory: noCategoryRows,
    sha256: await sha256Hex(br),
    bytes: br.length,
  };
  writeFileSync('data/sources.json', JSON.stringify(sources, null, 2) + '\n');
  console.log(
    JSON.stringify(
      { ...report, unreadable: report.unreadable.length, bytes: br.length, json: json.length, secs: ((performance.now() - started) / 1000).toFixed(1) },
      null,
      2,
    ),
  );
  for (const line of unreadable) console.log(`unreadable: ${line}`);
}

await main();
