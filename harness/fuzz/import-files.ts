/**
 * The import fuzzer: random files of both datasets, CSV and JSON, in every accepted encoding, with random
 * line breaks, quotes, long and oversize cells, deep values and unstorable ids, sometimes damaged byte by
 * byte, fed as bytes, a Blob or a stream of random pieces. Each case comes from one seed, so a failure
 * replays from its seed number alone. Used by tests/unit/fuzz/import.test.ts (a few hundred files) and by
 * scripts/fuzz-import.ts (as many as asked).
 *
 * What every case must show: the import ends (records or an ImportError, never another error); the
 * report's counts add up (imported + rejected = read, one record per imported row); nothing it imports is
 * unbounded (cells, reasons, examples, messages); no value holds a replacement or invalid-byte mark.
 * An undamaged file must also give back exactly the rows it was generated with, and reject exactly the
 * rows generated to be rejected.
 */
import { MAX_CELL } from '../../dataset/import/csv-rows.ts';
import { MAX_DEPTH } from '../../dataset/import/json-records.ts';
import { isImportError } from '../../dataset/import/errors.ts';
import { startImport } from '../../dataset/import/import.ts';
import { MAX_QUOTED, MAX_REJECTED_LISTED, type ImportReport } from '../../dataset/import/report.ts';
import type { ImportSource } from '../../dataset/import/source.ts';
import { Windows1252Decoder } from '../../dataset/import/windows-1252.ts';

/** mulberry32: small, fast, and the same sequence for the same seed on every platform. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const int = (rng: Rng, n: number): number => Math.floor(rng() * n);
const pick = <T>(rng: Rng, items: readonly T[]): T => items[int(rng, items.length)];
const chance = (rng: Rng, p: number): boolean => rng() < p;

type Kind = 'websites-csv' | 'websites-json' | 'ceilingrates-csv' | 'ceilingrates-json';
type Encoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** One generated row: the values written, and what the import must store (null: it must reject the row). */
interface Row {
  fields: Record<string, unknown>;
  expected: Record<string, unknown> | null;
}

export interface FuzzCase {
  seed: number;
  kind: Kind;
  encoding: Encoding;
  lineBreaks: string;
  feed: 'bytes' | 'blob' | 'stream';
  /** The damage done to the bytes, if any: then only the invariants are checked. */
  mutations: string[];
  rows: Row[];
  bytes: Uint8Array;
}

const PLAIN = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ0123456789-./';
const TRICKY = [',', '"', '\n', '\r\n', '\r', '""', 'é', '’', 'ñ', '–', '\t', ', ', '"a,b"'];
const WIDE = ['😀', '中文', 'Ω', '\u00a0'];

function textValue(rng: Rng, legacy: boolean): string {
  const length = 1 + int(rng, 24);
  let out = '';
  while (out.length < length) {
    out += chance(rng, 0.75) ? PLAIN[int(rng, PLAIN.length)] : pick(rng, legacy ? TRICKY : [...TRICKY, ...WIDE]);
    // Two Windows-1252 letters in a row can happen to be valid UTF-8 (é’’ is E9 92 92, one CJK character);
    // such a file is UTF-8 by any test, so the fuzzer does not write them.
    if (legacy) out += PLAIN[int(rng, PLAIN.length)];
  }
  // The import reads blank text as null and "--" as not applicable, and strips a spreadsheet guard.
  if (out.trim() === '' || out.trim() === '--' || out.startsWith("'")) out = `x${out}`;
  return out;
}

function priceText(rng: Rng, price: number): string {
  const fixed = price.toFixed(2);
  const [whole, cents] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return pick(rng, [fixed, `$${grouped}.${cents}`, `${grouped}.${cents}`, String(price)]);
}

const WEBSITE_HEADER = ['initial_domain', 'agency', 'bureau', 'cms', 'og_title', 'status_code'];
const RATE_HEADER = ['Contract #', 'Vendor Name', 'Labor Category', 'Current Year Labor Price'];

function websiteRows(rng: Rng, count: number, legacy: boolean, json: boolean): Row[] {
  return Array.from({ length: count }, (_, i) => {
    const host = `site-${i}.example.gov`;
    const agency = textValue(rng, legacy);
    const bureau = textValue(rng, legacy);
    const cms = textValue(rng, legacy);
    let title = textValue(rng, legacy);
    let expected: Record<string, unknown> | null = null;
    const status = pick(rng, [200, 301, 404, 0]);
    const roll = rng();
    if (roll < 0.03)
      title = 't'.repeat(MAX_CELL + 1 + int(rng, 300)); // over the bound: rejected
    else if (roll < 0.05) title = 'm'.repeat(MAX_CELL); // at the bound: imported whole
    const oversize = title.length > MAX_CELL;
    const fields: Record<string, unknown> = {
      initial_domain: host,
      agency,
      bureau,
      cms,
      og_title: title,
      status_code: json ? status : pick(rng, [String(status), `${status}.0`]),
    };
    if (json && chance(rng, 0.05)) {
      fields.extra = nest(MAX_DEPTH + 1 + int(rng, 2000));
    } else if (!oversize) {
      expected = {
        target_url: host,
        target_url_agency_owner: agency,
        target_url_bureau_owner: bureau,
        cms,
        og_title_final_url: title,
        final_url_status_code: status,
      };
    }
    return { fields, expected };
  });
}

function nest(depth: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function rateRows(rng: Rng, count: number, legacy: boolean, json: boolean): Row[] {
  return Array.from({ length: count }, (_, i) => {
    const vendor = textValue(rng, legacy);
    const category = textValue(rng, legacy);
    const price = Math.round(1000 + rng() * 300_000) / 100;
    let id: unknown = i + 1;
    let ok = true;
    if (json && chance(rng, 0.05)) {
      id = pick(rng, [1e300, 2 ** 53 + 2, 'abc']);
      ok = false;
    }
    let vendorValue = vendor;
    if (chance(rng, 0.02)) {
      vendorValue = 'v'.repeat(MAX_CELL + 1 + int(rng, 100));
      ok = false;
    }
    const fields: Record<string, unknown> = json
      ? { id, vendor_name: vendorValue, labor_category: category, current_price: price }
      : { 'Contract #': `GS-${i}`, 'Vendor Name': vendorValue, 'Labor Category': category, 'Current Year Labor Price': priceText(rng, price) };
    return { fields, expected: ok ? { id: i + 1, vendor_name: vendor, labor_category: category, current_price: price } : null };
  });
}

/** CSV rows carry no id: the rows imported are numbered 1, 2, 3… in file order. */
function numberImported(rows: Row[]): Row[] {
  let next = 1;
  for (const row of rows) if (row.expected) row.expected.id = next++;
  return rows;
}

function csvCell(value: unknown): string {
  const textOf = String(value);
  return /[",\r\n]/.test(textOf) || textOf === '' ? `"${textOf.replace(/"/g, '""')}"` : textOf;
}

function csvText(rng: Rng, kind: Kind, rows: Row[], breaks: string[]): string {
  const header = kind === 'websites-csv' ? WEBSITE_HEADER : RATE_HEADER;
  const lines: string[] = [];
  if (kind === 'ceilingrates-csv' && chance(rng, 0.5)) lines.push('Search Query,search=labor_category:engineer', 'Filters,"a, b"');
  lines.push(header.map(csvCell).join(','));
  for (const row of rows) lines.push(header.map((name) => csvCell(row.fields[name])).join(','));
  let text = '';
  lines.forEach((line, i) => (text += line + (i === lines.length - 1 && chance(rng, 0.2) ? '' : breaks[int(rng, breaks.length)])));
  return text;
}

function jsonText(rng: Rng, kind: Kind, rows: Row[]): string {
  const records = rows.map((row) => row.fields);
  const indent = chance(rng, 0.5) ? 1 : undefined;
  if (kind === 'websites-json') return JSON.stringify(chance(rng, 0.3) ? [{ items: records }] : records, null, indent);
  return JSON.stringify({ hits: { hits: records.map((source) => ({ _source: source })) } }, null, indent);
}

let cp1252: Map<string, number> | null = null;

/** Windows-1252 bytes of text that it can encode (the fuzzer only asks for such text). */
function encode1252(text: string): Uint8Array {
  if (!cp1252) {
    cp1252 = new Map();
    const decoder = new Windows1252Decoder();
    for (let b = 0; b < 256; b++) cp1252.set(decoder.decode(Uint8Array.of(b)), b);
  }
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const byte = cp1252.get(text[i]);
    if (byte === undefined) throw new Error(`not in Windows-1252: ${JSON.stringify(text[i])}`);
    out[i] = byte;
  }
  return out;
}

function encodeText(text: string, encoding: Encoding): Uint8Array {
  if (encoding === 'windows-1252') return encode1252(text);
  if (encoding === 'utf-8' || encoding === 'utf-8-bom') {
    const body = new TextEncoder().encode(text);
    if (encoding === 'utf-8') return body;
    const out = new Uint8Array(body.length + 3);
    out.set([0xef, 0xbb, 0xbf]);
    out.set(body, 3);
    return out;
  }
  const out = new Uint8Array(2 + text.length * 2);
  const le = encoding === 'utf-16le';
  out.set(le ? [0xff, 0xfe] : [0xfe, 0xff]);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    out[2 + 2 * i + (le ? 0 : 1)] = unit & 0xff;
    out[2 + 2 * i + (le ? 1 : 0)] = unit >> 8;
  }
  return out;
}

/** Damage of the kinds files really suffer: cut short, stray or flipped bytes, a piece lost or repeated. */
function mutate(rng: Rng, bytes: Uint8Array, log: string[]): Uint8Array {
  let out = bytes;
  const times = 1 + int(rng, 3);
  for (let i = 0; i < times && out.length > 0; i++) {
    const at = int(rng, out.length);
    const how = int(rng, 6);
    if (how === 0) {
      out = out.slice(0, at);
      log.push(`truncated at ${at}`);
    } else if (how === 1) {
      out = out.slice();
      out[at] = int(rng, 256);
      log.push(`byte ${at} set to ${out[at]}`);
    } else if (how === 2) {
      const junk = Uint8Array.from({ length: 1 + int(rng, 8) }, () => pick(rng, [0xff, 0xfe, 0x00, 0x80, 0xc3, 0x22, 0x0d, 0x0a, 0x2c, int(rng, 256)]));
      out = concat(out.slice(0, at), junk, out.slice(at));
      log.push(`${junk.length} bytes inserted at ${at}`);
    } else if (how === 3) {
      const end = Math.min(out.length, at + 1 + int(rng, 200));
      out = concat(out.slice(0, at), out.slice(end));
      log.push(`bytes ${at}-${end} removed`);
    } else if (how === 4) {
      const end = Math.min(out.length, at + 1 + int(rng, 500));
      out = concat(out.slice(0, end), out.slice(at, end), out.slice(end));
      log.push(`bytes ${at}-${end} repeated`);
    } else {
      out = concat(
        out,
        Uint8Array.from({ length: 1 + int(rng, 20) }, () => int(rng, 256)),
      );
      log.push('garbage appended');
    }
  }
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The case of one seed: the same file, feed and damage every time. */
export function makeCase(seed: number): FuzzCase {
  const rng = random(seed);
  const kind = pick(rng, ['websites-csv', 'websites-json', 'ceilingrates-csv', 'ceilingrates-json'] as const);
  const encoding = pick(rng, ['utf-8', 'utf-8', 'utf-8-bom', 'utf-16le', 'utf-16be', 'windows-1252'] as const);
  const legacy = encoding === 'windows-1252';
  const json = kind.endsWith('json');
  const count = int(rng, 40) + (chance(rng, 0.1) ? 0 : 1);
  const rows = kind.startsWith('websites') ? websiteRows(rng, count, legacy, json) : rateRows(rng, count, legacy, json);
  if (kind === 'ceilingrates-csv') numberImported(rows);
  const breaks = pick(rng, [['\n'], ['\r\n'], ['\r'], ['\n', '\r\n'], ['\r\n', '\r', '\n']]);
  const text = json ? jsonText(rng, kind, rows) : csvText(rng, kind, rows, breaks);
  const mutations: string[] = [];
  let bytes = encodeText(text, encoding);
  if (chance(rng, 0.35)) bytes = mutate(rng, bytes, mutations);
  // A one-shot stream is decoded as strict UTF-8 (it cannot be read twice): other encodings arrive whole.
  const feed = pick(rng, encoding === 'windows-1252' ? (['bytes', 'blob'] as const) : (['bytes', 'blob', 'stream'] as const));
  return { seed, kind, encoding, lineBreaks: JSON.stringify(breaks), feed, mutations, rows, bytes };
}

function sourceOf(fuzz: FuzzCase): ImportSource {
  if (fuzz.feed === 'bytes') return fuzz.bytes;
  if (fuzz.feed === 'blob') return new Blob([fuzz.bytes as Uint8Array<ArrayBuffer>]);
  const rng = random(fuzz.seed ^ 0x5eed);
  const bytes = fuzz.bytes;
  return (async function* pieces() {
    for (let at = 0; at < bytes.length;) {
      const size = 1 + int(rng, 5000);
      yield bytes.subarray(at, at + size);
      at += size;
    }
  })();
}

export interface FuzzOutcome {
  /** 'ok' with records, or the ImportError code. */
  result: string;
  rowsRead: number;
}

function fail(fuzz: FuzzCase, what: string): never {
  throw new Error(
    `import fuzz seed ${fuzz.seed} (${fuzz.kind}, ${fuzz.encoding}, breaks ${fuzz.lineBreaks}, fed as ${fuzz.feed}` +
      `${fuzz.mutations.length ? `, damaged: ${fuzz.mutations.join('; ')}` : ''}): ${what}\n` +
      `  replay: npm run fuzz:import -- --seed ${fuzz.seed} --files 1`,
  );
}

/** `records`: how many the batches gave, once they all have (a failed import stops with some still buffered). */
function checkReport(fuzz: FuzzCase, report: ImportReport, records: number | null): void {
  if (report.rowsImported + report.rowsRejected !== report.rowsRead)
    fail(fuzz, `imported ${report.rowsImported} + rejected ${report.rowsRejected} ≠ read ${report.rowsRead}`);
  if (records !== null && records !== report.rowsImported) fail(fuzz, `${records} records for ${report.rowsImported} rows imported`);
  if (report.rejected.length !== Math.min(report.rowsRejected, MAX_REJECTED_LISTED)) fail(fuzz, 'rejected rows listed do not match the count');
  for (const row of report.rejected) if (row.reason.length > 3 * MAX_QUOTED + 200) fail(fuzz, `a reason of ${row.reason.length} characters`);
  for (const note of report.values) {
    for (const example of note.examples) {
      if (example.original.length > MAX_QUOTED + 40 || (example.value?.length ?? 0) > MAX_QUOTED + 40)
        fail(fuzz, `an example of ${example.original.length} characters`);
    }
  }
}

function checkValue(fuzz: FuzzCase, value: unknown): void {
  if (typeof value === 'string') {
    if (value.length > MAX_CELL) fail(fuzz, `a stored value of ${value.length} characters`);
    if (value.includes('\uFFFD') || value.includes('\uFFFF'))
      fail(fuzz, `a stored value with a replacement or invalid-byte mark: ${JSON.stringify(value.slice(0, 80))}`);
  } else if (Array.isArray(value)) {
    for (const item of value) checkValue(fuzz, item);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) checkValue(fuzz, item);
  }
}

/** Runs one case through the import core and checks it; throws an Error naming its seed number on any failure. */
export async function runCase(fuzz: FuzzCase): Promise<FuzzOutcome> {
  const run = await startImport(sourceOf(fuzz), { now: new Date('2026-01-01T00:00:00Z'), batchSize: 1 + (fuzz.seed % 50) }).catch((error: unknown) => {
    if (!isImportError(error)) fail(fuzz, `threw ${String(error)}`);
    if (error.message.length > 1000) fail(fuzz, `a message of ${error.message.length} characters`);
    return error;
  });
  const records: Record<string, unknown>[] = [];
  if (isImportError(run)) {
    if (fuzz.mutations.length === 0 && fuzz.rows.length > 0) fail(fuzz, `an undamaged file failed: ${run.code}: ${run.message}`);
    return { result: run.code, rowsRead: 0 };
  }
  try {
    for await (const batch of run.batches as AsyncIterable<Record<string, unknown>[]>) records.push(...batch);
  } catch (error) {
    if (!isImportError(error)) fail(fuzz, `threw ${error instanceof Error ? error.stack : String(error)}`);
    if (error.message.length > 1000) fail(fuzz, `a message of ${error.message.length} characters`);
    checkReport(fuzz, run.report, null);
    for (const record of records) checkValue(fuzz, record);
    const undamagedFailure = fuzz.mutations.length === 0 && fuzz.rows.some((row) => row.expected !== null);
    if (undamagedFailure) fail(fuzz, `an undamaged file failed: ${error.code}: ${error.message}`);
    return { result: error.code, rowsRead: run.report.rowsRead };
  }
  checkReport(fuzz, run.report, records.length);
  for (const record of records) checkValue(fuzz, record);
  if (fuzz.mutations.length === 0) checkRoundTrip(fuzz, run.report, records);
  return { result: 'ok', rowsRead: run.report.rowsRead };
}

/** An undamaged file: exactly the rows meant to be imported, with exactly their values, in order. */
function checkRoundTrip(fuzz: FuzzCase, report: ImportReport, records: Record<string, unknown>[]): void {
  const expected = fuzz.rows.filter((row) => row.expected !== null);
  if (report.rowsRead !== fuzz.rows.length) fail(fuzz, `read ${report.rowsRead} rows of ${fuzz.rows.length}`);
  if (records.length !== expected.length)
    fail(
      fuzz,
      `imported ${records.length} rows, expected ${expected.length}; first reasons: ${report.rejected
        .slice(0, 3)
        .map((r) => r.reason)
        .join(' | ')}`,
    );
  expected.forEach((row, i) => {
    for (const [key, value] of Object.entries(row.expected!)) {
      if (records[i][key] !== value)
        fail(fuzz, `row ${i + 1}: ${key} is ${JSON.stringify(records[i][key])?.slice(0, 120)}, written ${JSON.stringify(value).slice(0, 120)}`);
    }
  });
  if (report.encoding !== 'text' && report.encoding !== fuzz.encoding.replace('-bom', '')) {
    // A Windows-1252 file of plain ASCII is UTF-8 as well.
    const ascii = fuzz.bytes.every((b) => b < 0x80);
    if (!(ascii && report.encoding === 'utf-8')) fail(fuzz, `read as ${report.encoding}`);
  }
}
