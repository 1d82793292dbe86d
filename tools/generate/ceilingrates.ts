/**
 * Deterministic ceiling-rate records at the real service's scale and shape (specs/data.md): contracts of
 * several thousand vendors, each offering a few dozen labor categories; free-text labor categories with heavy
 * repetition, levels, upper-case variants and trailing spaces; prices skewed like real ones with float
 * artefacts, four-decimal prices and the 9,999 placeholder; SIN strings with every separator the contract lists.
 * Vocabularies are real: the 2016–2017 CALC samples' (tools/vocab/ceilingrates.json) for the legacy schedules, and
 * for the Multiple Award Schedule since its 2019 consolidation the SINs, categories, labor categories, vendors and
 * price levels production answered with in 2024 and 2026 (tools/vocab/ceilingrates-mas.json, with its sources).
 */
import type { Database } from 'sql.js';
import type { DatasetGenerator } from './generator.ts';
import { Random } from '../random.ts';
import vocab from '../vocab/ceilingrates.json' with { type: 'json' };
import mas from '../vocab/ceilingrates-mas.json' with { type: 'json' };
import type { CeilingRateRecord } from '../../engine/ceilingrates/record.ts';
import { countCeilingRates, createCeilingRatesSchema, insertCeilingRates, writeCeilingRatesColumns } from '../../engine/ceilingrates/schema.ts';

/**
 * The CALC v3 category tree is not in the real samples; these are the Multiple Award Schedule's large
 * categories with subcategories that carry labor-hour pricing.
 */
const CATEGORIES: readonly (readonly [string, readonly string[]])[] = [
  [
    'Professional Services',
    [
      'Business Administrative Services',
      'Technical and Engineering Services (non-IT)',
      'Financial Services',
      'Marketing and Public Relations',
      'Language Services',
      'Legal Services',
      'Logistics Services',
      'Environmental Services',
    ],
  ],
  [
    'Information Technology',
    [
      'IT Services',
      'IT Professional Services',
      'Highly Adaptive Cybersecurity Services (HACS)',
      'Health Information Technology Services',
      'Cloud and Cloud-Related IT Professional Services',
    ],
  ],
  ['Human Capital', ['Human Resources', 'Training', 'Compensation and Benefits']],
  ['Facilities', ['Facilities Services', 'Facilities Maintenance and Repair']],
  ['Security and Protection', ['Security Services', 'Protective Service Occupations']],
  ['Scientific Management and Solutions', ['Scientific Services', 'Laboratory Testing']],
  ['Office Management', ['Document Services', 'Records Management']],
];

const EDUCATION: readonly (readonly [string, number])[] = [
  ['BA', 46],
  ['MA', 16],
  ['HS', 13],
  ['AA', 12],
  ['NONE', 5],
  ['OTHER', 4],
  ['PHD', 4],
];
const WORKSITE: readonly (readonly [string, number])[] = [
  ['Both', 34],
  ['Customer', 20],
  ['Contractor', 14],
  ['Customer Facility', 10],
  ['Contractor Facility', 9],
  ['Customer Site', 8],
  ['None', 5],
];
const CLEARANCE: readonly (readonly [string | null, number])[] = [
  ['No', 38],
  [null, 30],
  ['None', 12],
  ['Yes', 12],
  ['As Required', 8],
];
const SCHEDULES: readonly (readonly [string, number])[] = [['MAS', 40], ...vocab.schedules.map((s, i) => [s, Math.max(2, 20 - 3 * i)] as const)];
const EXPERIENCE: readonly (readonly [number, number])[] = [
  [0, 3],
  [1, 8],
  [2, 10],
  [3, 14],
  [4, 7],
  [5, 14],
  [6, 6],
  [7, 5],
  [8, 6],
  [10, 12],
  [12, 4],
  [15, 5],
  [20, 3],
  [25, 1],
  [30, 1],
];
const LEVELS: readonly (readonly [string, number, number])[] = [
  // suffix, price factor, extra years
  ['', 1, 0],
  [' I', 0.8, 0],
  [' II', 1, 2],
  [' III', 1.25, 5],
  [' IV', 1.5, 8],
  [' Level 1', 0.8, 0],
  [' Level 2', 1, 2],
  [' Level 3', 1.25, 5],
];
const SIN_SEPARATORS = [', ', ',', '; ', ';', '/', ' / ', ' ', '\n', ' and '];
const PIID_PREFIXES = ['GS-10F', 'GS-35F', 'GS-00F', 'GS-23F', 'GS-02F', 'GS-07F', '47QRAA', '47QTCA', '47QSHA'];

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/**
 * A family of post-2019 MAS contracts: its SINs, category and subcategories, labor categories (`legacy`: the IT
 * labor categories of the CALC samples) and the median hourly price production's answers show for it.
 */
interface Family {
  name: string;
  weight: number;
  sins: readonly string[];
  category: string;
  subcategories: readonly string[];
  priceMedian: number;
  laborCategories: readonly string[] | 'legacy';
}
const FAMILIES = mas.families as readonly Family[];
/** Share of contracts on the consolidated MAS (SINs like 54151S): most of today's records. */
const MAS_SHARE = 0.6;
/** The legacy schedules' price level (the CALC samples' median is near it). */
const LEGACY_MEDIAN = 105;

interface Contract {
  /** The MAS family, or null for a legacy-schedule contract. */
  family: Family | null;
  vendor: string;
  piid: string;
  schedule: string;
  sin: string;
  category: string;
  subcategory: string;
  businessSize: string;
  worksite: string;
  priceFactor: number;
  start: Date;
  end: Date;
  terminated: Date | null;
  timestamp: string;
  rows: number;
}

function vendorName(rng: Random, index: number): string {
  // Real vendors first (as often as real data repeats them), then names composed from real vendor words.
  if (index < vocab.vendors.length && rng.chance(0.6)) return vocab.vendors[index];
  const words = rng.int(1, 3);
  const parts: string[] = [];
  for (let i = 0; i < words; i++) parts.push(rng.pick(vocab.vendorWords));
  let name = `${parts.join(' ')} ${rng.pick(vocab.vendorSuffixes)}`;
  if (rng.chance(0.25)) name = name.toUpperCase();
  // The contract index keeps composed names distinct without looking synthetic.
  return rng.chance(0.7) ? name : `${name.replace(/,? (Inc\.|LLC|LLP|Corp\.|Corporation)$/i, '')} ${index % 97 === 0 ? 'International' : 'Federal'}, LLC`;
}

function sinString(rng: Random): string {
  if (rng.chance(0.45)) return rng.pick(vocab.sinStrings);
  const n = rng.weighted([
    [1, 40],
    [2, 30],
    [3, 20],
    [4, 10],
  ] as const);
  const codes: string[] = [];
  for (let i = 0; i < n; i++) {
    let code = rng.pick(vocab.sinCodes);
    if (rng.chance(0.08)) code += '.0';
    if (!codes.includes(code)) codes.push(code);
  }
  const sep = rng.pick(SIN_SEPARATORS);
  return codes.join(sep);
}

function piid(rng: Random, serial: number): string {
  const prefix = rng.pick(PIID_PREFIXES);
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  if (prefix.startsWith('47Q')) return `${prefix}${pad(rng.int(15, 24), 2)}D${serial.toString(36).toUpperCase().padStart(4, '0')}`;
  return `${prefix}-${pad(serial % 10000, 4)}${letters[Math.floor(serial / 10000) % letters.length]}${rng.chance(0.5) ? letters[rng.int(0, letters.length - 1)] : ''}`;
}

const isoDate = (d: Date): string => d.toISOString().slice(0, 10);
const compactDate = (d: Date): string => isoDate(d).replace(/-/g, '');
const DAY = 86_400_000;

/** A consolidated-MAS contract number, as production writes them: `47QRAA22D004N`, `GS00F017CA`. */
function masPiid(rng: Random, serial: number): string {
  const prefix = rng.pick(mas.piidPrefixes);
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  if (prefix.startsWith('47Q')) return `${prefix}${pad(rng.int(18, 25), 2)}D${serial.toString(36).toUpperCase().padStart(4, '0')}`;
  return `${prefix}${pad(serial % 1000, 3)}${letters[Math.floor(serial / 1000) % letters.length]}${letters[rng.int(0, letters.length - 1)]}`;
}

/** A MAS contract's SINs: one to three of its family's codes, now and then an ancillary code, comma-joined. */
function masSins(rng: Random, family: Family): string {
  const codes = [rng.pick(family.sins)];
  const more = rng.weighted([
    [0, 45],
    [1, 35],
    [2, 20],
  ] as const);
  for (let i = 0; i < more; i++) {
    const code = rng.pick(family.sins);
    if (!codes.includes(code)) codes.push(code);
  }
  if (rng.chance(0.05)) codes.push(rng.pick(mas.extraSins));
  return codes.join(rng.chance(0.85) ? ',' : ', ');
}

function masContract(rng: Random, base: Contract, serial: number): Contract {
  const family = rng.weighted(FAMILIES.map((f) => [f, f.weight] as const));
  const { subcategories } = family;
  const subcategory = rng.chance(0.3) ? `${rng.pick(subcategories)}; ${rng.pick(subcategories)}` : rng.pick(subcategories);
  return {
    ...base,
    family,
    vendor: rng.chance(0.04) ? rng.pick(mas.vendors) : base.vendor,
    piid: masPiid(rng, serial),
    schedule: mas.schedule,
    sin: masSins(rng, family),
    category: rng.chance(0.2) ? `${family.category}; Miscellaneous` : family.category,
    subcategory: subcategory
      .split('; ')
      .filter((v, i, all) => all.indexOf(v) === i)
      .join('; '),
  };
}

function contract(rng: Random, vendor: string, businessSize: string, serial: number): Contract {
  const start = new Date(Date.UTC(rng.int(2003, 2024), rng.int(0, 11), rng.int(1, 28)));
  const years = rng.weighted([
    [5, 35],
    [10, 25],
    [15, 25],
    [20, 15],
  ] as const);
  const end = new Date(Date.UTC(start.getUTCFullYear() + years, start.getUTCMonth(), start.getUTCDate()) - DAY);
  const latest = Math.min(end.getTime(), Date.UTC(2026, 5, 30));
  const terminated =
    rng.chance(0.04) && latest > start.getTime() ? new Date(start.getTime() + Math.floor(rng.next() * ((latest - start.getTime()) / DAY)) * DAY) : null;
  const [category, subcategories] = rng.weighted(CATEGORIES.map((c, i) => [c, 7 - i] as const));
  const timestamp = `2026-${pad(rng.int(6, 8), 2)}-${pad(rng.int(1, 28), 2)}T${pad(rng.int(2, 6), 2)}:${pad(rng.int(0, 59), 2)}:${pad(rng.int(0, 59), 2)}Z`;
  const legacy: Contract = {
    family: null,
    vendor,
    piid: piid(rng, serial),
    schedule: rng.weighted(SCHEDULES),
    sin: sinString(rng),
    category,
    subcategory: rng.chance(0.2) ? `${rng.pick(subcategories)};${rng.pick(subcategories)}` : rng.pick(subcategories),
    businessSize,
    worksite: rng.weighted(WORKSITE),
    priceFactor: rng.lognormal(1, 0.25),
    start,
    end,
    terminated,
    timestamp,
    rows: Math.min(300, 3 + Math.floor(rng.lognormal(28, 0.8))),
  };
  return rng.chance(MAS_SHARE) ? masContract(rng, legacy, serial) : legacy;
}

function laborCategory(rng: Random, family: Family | null): { name: string; factor: number; years: number } {
  // A family's own titles carry their levels already (Engineer I … VI, Registered Nurse I … IV): used as written.
  if (family && family.laborCategories !== 'legacy') {
    const titles = family.laborCategories;
    const at = rng.zipf(titles.length, 0.9);
    return { name: titles[at], factor: 0.85 + (0.4 * at) / titles.length, years: 0 };
  }
  let name = vocab.laborCategories[rng.zipf(vocab.laborCategories.length, 1.25)];
  const [suffix, factor, years] = rng.chance(0.35) ? rng.pick(LEVELS) : LEVELS[0];
  name += suffix;
  if (rng.chance(0.06)) name = `Senior ${name}`;
  if (rng.chance(0.08)) name = name.toUpperCase();
  if (rng.chance(0.03)) name += ' ';
  return { name, factor, years };
}

function price(rng: Random, median: number): number {
  if (rng.chance(0.0004)) return 9999;
  const raw = Math.max(10, rng.lognormal(median, 0.55));
  const shape = rng.next();
  // Most prices are cents; a few carry the float artefacts of the source (cents * 0.01) or four decimals.
  if (shape < 0.9) return Math.round(raw * 100) / 100;
  if (shape < 0.96) return Math.round(raw * 100) * 0.01;
  return Math.round(raw * 10000) / 10000;
}

/** The records, in id order, one contract's labor categories at a time. */
export function* ceilingRateRecords(count: number, seed: number): Generator<CeilingRateRecord> {
  const rng = new Random(seed);
  let id = 0;
  let vendorIndex = 0;
  let serial = 1;
  while (id < count) {
    const vendor = vendorName(rng, vendorIndex++);
    const businessSize = rng.chance(0.75) ? 'S' : 'O';
    const contracts = rng.weighted([
      [1, 70],
      [2, 22],
      [3, 8],
    ] as const);
    for (let c = 0; c < contracts && id < count; c++) {
      const k = contract(rng, vendor, businessSize, serial++);
      for (let r = 0; r < k.rows && id < count; r++) {
        const lcat = laborCategory(rng, k.family);
        const current = price(rng, (k.family?.priceMedian ?? LEGACY_MEDIAN) * k.priceFactor * lcat.factor);
        const next = rng.chance(0.85) ? Math.round(current * (1 + rng.int(20, 40) / 1000) * 100) / 100 : null;
        const second = next !== null && rng.chance(0.8) ? Math.round(next * (1 + rng.int(20, 40) / 1000) * 100) / 100 : null;
        id++;
        yield {
          id,
          vendor_name: k.vendor,
          idv_piid: k.piid,
          schedule: k.schedule,
          sin: k.sin,
          labor_category: lcat.name,
          category: k.category,
          subcategory: k.subcategory,
          education_level: rng.weighted(EDUCATION),
          min_years_experience: Math.min(40, rng.weighted(EXPERIENCE) + lcat.years),
          worksite: rng.chance(0.9) ? k.worksite : rng.weighted(WORKSITE),
          security_clearance: rng.weighted(CLEARANCE),
          business_size: k.businessSize,
          current_price: current,
          next_year_price: next,
          second_year_price: second,
          contract_start: isoDate(k.start),
          contract_end: isoDate(k.end),
          cont_beg_dtg: compactDate(k.start),
          cont_end_dtg: compactDate(k.end),
          dt_termg: k.terminated ? compactDate(k.terminated) : null,
          _timestamp: k.timestamp,
        };
      }
    }
  }
}

const BATCH = 25_000;

export const ceilingRatesDataset: DatasetGenerator = {
  name: 'ceilingrates',
  title: 'Ceiling rates',
  seed: 20_250_301,
  profiles: { default: 250_000, small: 3_000 },
  createSchema: createCeilingRatesSchema,
  generate(db: Database, count: number, seed: number): void {
    // Batches keep the generator's memory flat at 250,000 records; each batch is one transaction.
    let batch: CeilingRateRecord[] = [];
    for (const record of ceilingRateRecords(count, seed)) {
      batch.push(record);
      if (batch.length === BATCH) {
        insertCeilingRates(db, batch);
        batch = [];
      }
    }
    if (batch.length) insertCeilingRates(db, batch);
    writeCeilingRatesColumns(db);
  },
  countRows: countCeilingRates,
};
