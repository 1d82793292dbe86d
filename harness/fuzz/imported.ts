/**
 * A ceiling-rates dataset the way a user's import makes one: a CSV file in the export's columns, written with
 * the hostile texts (tools/generate/hostile.ts) in every text column and odd numbers in the numeric ones
 * (prices near the largest double, negatives, currency formatting, words), read by the import core.
 */
import Papa from 'papaparse';
import type { Database } from 'sql.js';
import { loadSqlJs } from '../../adapters/node/datasets/sqljs-node.ts';
import { importIntoDatabase } from '../../dataset/import/index.ts';
import { HOSTILE_PAYLOADS } from '../../tools/generate/hostile.ts';

const HEADER = [
  'Contract #',
  'Business Size',
  'Schedule',
  'Site',
  'Begin Date',
  'End Date',
  'SIN',
  'Vendor Name',
  'Labor Category',
  'education Level',
  'Minimum Years Experience',
  'Current Year Labor Price',
  'Next Year Labor Price',
  'Second Year Labor Price',
  'Security Clearance',
  'Category',
  'Subcategory',
];
const PRICES = ['1e308', '1.7976931348623157e308', '-5', '0', '$1,234.50', '99.999999', 'abc', '', '1e400', '12.5', '0.0001', '100'];
const YEARS = ['0', '5', '-1', '1e9', 'ten', '', '3.7'];
const WORDS = ['S', 'O', 'Yes', 'No', 'BA', 'MA', 'Customer', 'Both', '54151S, 874-1.0 and C871-3'];

/** The CSV text of `rows` hostile rates. */
export function hostileRatesCsv(rows: number): string {
  const texts = HOSTILE_PAYLOADS.map((p) => p.text);
  const pick = (list: readonly string[], i: number): string => list[i % list.length];
  const data = Array.from({ length: rows }, (_, i) => [
    `GS-${i}-${pick(texts, i)}`.slice(0, 200),
    pick(WORDS, i),
    pick(texts, i + 1),
    pick(WORDS, i + 2),
    '1/5/2020',
    '1/4/2025',
    pick(WORDS, i + 3) + pick(texts, i + 2),
    pick(texts, i + 3),
    pick(texts, i + 4),
    pick(WORDS, i + 5),
    pick(YEARS, i),
    pick(PRICES, i),
    pick(PRICES, i + 1),
    pick(PRICES, i + 2),
    pick(WORDS, i + 6),
    pick(texts, i + 5),
    pick(texts, i + 6),
  ]);
  return Papa.unparse([HEADER, ...data]);
}

/** A database imported from that file, through the import core. */
export async function importedHostileRates(rows: number): Promise<Database> {
  const result = await importIntoDatabase(await loadSqlJs(), new TextEncoder().encode(hostileRatesCsv(rows)));
  return result.db;
}
