/**
 * Extracts the ceiling-rates generator's vocabulary from the real CALC samples into a small committed file,
 * so the build never reads the samples:
 *   npx tsx tools/vocab/ceilingrates-extract.ts <folder of CALC sample CSVs> > tools/vocab/ceilingrates.json
 * Labor categories keep their real text (trimmed; case variants and trailing spaces are added by the
 * generator), most frequent first. Vendor names are the real ones plus the words they are made of, from
 * which the generator composes the several thousand vendors the real data has. SIN strings keep their real
 * separators; the base codes feed the generator's own compound strings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npx tsx tools/vocab/ceilingrates-extract.ts <folder of CALC sample CSVs>');
  process.exit(2);
}

function read(file: string): Record<string, string>[] {
  const text = readFileSync(join(dir, file), 'utf8');
  return Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;
}

const hourly = read('hourly_prices_sample.csv');
const s70 = read('s70_data.csv');

function byFrequency(values: string[]): string[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([v]) => v);
}

const clean = (s: string | undefined): string => (s ?? '').replace(/\uFFFD/g, '').replace(/\s+/g, ' ').trim();

const laborCategories = byFrequency(
  [...s70.map((r) => r['SERVICE PROPOSED (e.g. Job Title/Task)']), ...hourly.map((r) => r['Labor Category'])]
    .map(clean)
    .filter((s) => s.length >= 3 && s.length <= 90),
);

const vendors = byFrequency([...s70.map((r) => r['VENDOR NAME']), ...hourly.map((r) => r['COMPANY NAME'])].map(clean).filter(Boolean));

const SUFFIX = /^(inc\.?|llc\.?|l\.l\.c\.|llp|corp\.?|corporation|co\.?|ltd\.?|lp|pllc|pc|incorporated|company)$/i;
const words = new Set<string>();
for (const v of vendors) {
  for (const raw of v.split(/[\s,]+/)) {
    const w = raw.replace(/[()"]/g, '');
    if (!w) continue;
    if (SUFFIX.test(w)) continue;
    if (/^[A-Za-z][A-Za-z&'-]{2,}$/.test(w) && !/^(dba|the|and|of|for)$/i.test(w)) words.add(w[0].toUpperCase() + w.slice(1).toLowerCase());
  }
}

const sinStrings = byFrequency([...hourly.map((r) => r['SIN NUMBER']), ...s70.map((r) => r['SIN(s)'])].map((s) => (s ?? '').trim()).filter(Boolean));
const sinCodes = [...new Set(sinStrings.flatMap((s) => s.split(/[,;/\s&]+|\band\b/).filter((c) => /^C?\d{3}-[0-9A-Z]+$/.test(c))))].sort();

const schedules = byFrequency([...hourly.map((r) => r['Schedule']), ...s70.map((r) => r['SCHEDULE'])].map(clean).filter(Boolean));

const vocab = {
  source: 'CALC samples: 18F/calc contracts/docs/hourly_prices_sample.csv and contracts/docs/s70/s70_data.csv',
  laborCategories,
  vendors,
  vendorWords: [...words].sort(),
  vendorSuffixes: ['Inc.', 'LLC', 'LLP', 'Corp.', 'Corporation', 'Group, Inc.', 'Associates, Inc.', 'Solutions, LLC', 'Consulting, LLC', 'Technologies, Inc.'],
  sinStrings,
  sinCodes,
  schedules,
};
process.stdout.write(JSON.stringify(vocab, null, 1) + '\n');
