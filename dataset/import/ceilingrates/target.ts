/** Ceiling rates as an import target: the export's or a price list's rows, saved API pages, the rates table. */
import type { CeilingRateRecord } from '../../../engine/ceilingrates/record.ts';
import { insertCeilingRates, writeCeilingRatesColumns } from '../../../engine/ceilingrates/schema.ts';
import { ImportError } from '../errors.ts';
import { normaliseHeader } from '../columns.ts';
import { isObject } from '../json-records.ts';
import { isBlank } from '../values.ts';
import type { ImportTarget, Mapper } from '../target.ts';
import type { SourceFields } from '../fields.ts';
import { CEILING_COLUMNS, type CeilingColumn } from './columns.ts';
import { mapCeilingRate, type ImportedCeilingRate } from './map.ts';

/** A ceiling-rate header: the export's (`Contract #` first) or any generation's labor category plus a price. */
function isCeilingHeader(cells: readonly string[]): boolean {
  if (cells.length > 1 && normaliseHeader(cells[0]) === 'contract #') return true;
  const names = new Set(cells.map(normaliseHeader));
  const has = (key: CeilingColumn): boolean => CEILING_COLUMNS[key].some((alias) => names.has(normaliseHeader(alias)));
  return has('labor_category') && (has('current_price') || has('year_1'));
}

function ceilingMapper(now: Date, firstId: () => number): Mapper<ImportedCeilingRate> {
  const timestamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  let nextId = 0;
  const context = {
    timestamp,
    assignId: () => {
      if (nextId === 0) nextId = firstId();
      return nextId++;
    },
  };
  return {
    aliases: CEILING_COLUMNS,
    prepare(has) {
      const missing: string[] = [];
      if (!has('labor_category')) missing.push('Labor Category');
      if (!has('current_price') && !has('year_1')) missing.push('Current Year Labor Price');
      if (missing.length > 0) throw new ImportError('malformed', `The file has no ${missing.join(' and no ')} column. Nothing was changed.`);
    },
    map: (row, notes) => mapCeilingRate(row as SourceFields<CeilingColumn>, context, notes),
    identity: (record) => record.id,
    identityName: 'id',
  };
}

/** Only a number or its text counts: Number() of a nested array would walk it recursively. */
function safeId(record: unknown): number | null {
  if (!isObject(record)) return null;
  const id = typeof record.id === 'number' || typeof record.id === 'string' ? Number(record.id) : Number.NaN;
  return Number.isSafeInteger(id) ? id : null;
}

/** A hit's `_source`, with the hit's `_id` as the id when the source has none. */
function fromHit(hit: unknown): unknown {
  if (!isObject(hit) || !isObject(hit._source)) return hit;
  const source = hit._source;
  return source.id === undefined && hit._id !== undefined ? { ...source, id: hit._id } : source;
}

export const ceilingRatesTarget: ImportTarget<ImportedCeilingRate, 'ceilingrates'> = {
  dataset: 'ceilingrates',
  labels: { csv: 'Ceiling-rate export (CSV)', json: 'Ceiling-rate API pages (JSON)' },
  builtIn: 'csv',
  accepts: 'the ceiling-rate export CSV, or ceiling-rate API pages saved as JSON',
  start(options) {
    // CSV rows carry no ids: 1, 2, 3… JSON records keep theirs; one without gets max + 1, counted once the file is read.
    let jsonMax = 0;
    return {
      mapper: ceilingMapper(options.now ?? new Date(), () => jsonMax + 1),
      jsonIds: {
        waits: (record) => isObject(record) && isBlank(record.id),
        see: (record) => (jsonMax = Math.max(jsonMax, safeId(record) ?? 0)),
      },
    };
  },
  // The export's metadata rows come before its header.
  csv: { isHeader: isCeilingHeader, rowsBeforeHeader: 50 },
  json: {
    keys: /"(hits|_source|labor_category|idv_piid)"\s*:/,
    name: /ceiling|calc|rate/,
    holds: 'ceiling-rate API pages',
    page: ['hits', 'hits'],
    noRecords: 'The JSON file holds no ceiling-rate hits (hits.hits[]._source). Nothing was changed.',
    record: fromHit,
  },
  insertEvery: 25_000,
  // The schema stores a NULL min_years_experience; the engine's record type is narrower (decision 0502).
  insert: (db, records) => insertCeilingRates(db, records as unknown as CeilingRateRecord[]),
  // The engine binds an imported database as fast as a built one only when it carries the column table.
  finish: writeCeilingRatesColumns,
};
