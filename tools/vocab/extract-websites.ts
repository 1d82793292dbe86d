/**
 * Extracts the websites generator's vocabulary from the real Site Scanning samples into a small committed
 * file, so the build never reads the samples:
 *   npx tsx tools/vocab/extract-websites.ts <folder of Site Scanning sample CSVs> > tools/vocab/websites-owners.json
 * Selects about 150 agencies and 270 bureaus (most frequent first) and every real base domain they own,
 * then adds word-like subdomain labels as further `.gov` base domains until there are about 1,400.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npx tsx tools/vocab/extract-websites.ts <folder of Site Scanning sample CSVs>');
  process.exit(2);
}
const AGENCIES = 150;
const BUREAUS = 270;
const BASE_DOMAINS = 1400;

interface Row {
  agency: string;
  bureau: string | null;
  branch: string;
  host: string;
  base: string;
}

function read(file: string): Record<string, string>[] {
  const text = readFileSync(join(dir, file), 'utf8');
  return Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;
}

const rows: Row[] = [];
for (const r of read('standards.csv')) {
  rows.push({ agency: r.agency, bureau: r.bureau || null, branch: r.branch || 'Executive', host: r.initial_domain, base: r.initial_base_domain });
}
for (const r of read('weekly-snapshot-all-2023-06-15-columns-subset.csv')) {
  rows.push({ agency: r.target_url_agency_owner, bureau: r.target_url_bureau_owner || null, branch: '', host: r.final_url_website, base: r.final_url_domain });
}
const usable = rows.filter((r) => r.agency && r.host && r.base && /^[a-z0-9.-]+$/.test(r.base) && r.base.includes('.'));

const count = <K>(keys: K[]): Map<K, number> => {
  const m = new Map<K, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
};
const byCount = <K>(m: Map<K, number>): [K, number][] =>
  [...m].sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])));

const branchOf = new Map<string, string>();
for (const r of usable) if (r.branch && !branchOf.has(r.agency)) branchOf.set(r.agency, r.branch);

const agencies = byCount(count(usable.map((r) => r.agency))).slice(0, AGENCIES);
const selectedAgencies = new Set(agencies.map(([a]) => a));
const pairKey = (r: Row): string => `${r.agency}\u0000${r.bureau ?? ''}`;
const pairs = byCount(count(usable.filter((r) => selectedAgencies.has(r.agency)).map(pairKey)));
// Every agency has its most frequent bureau selected; the remaining places go to the most frequent pairs overall.
const selectedPairs = new Set<string>();
for (const [a] of agencies) {
  const top = pairs.find(([k]) => k.startsWith(a + '\u0000'));
  if (top) selectedPairs.add(top[0]);
}
for (const [k] of pairs) if (selectedPairs.size < BUREAUS) selectedPairs.add(k);

// Each base domain belongs to the pair that owns most of its hosts.
const domainOwners = new Map<string, Map<string, number>>();
for (const r of usable) {
  if (!selectedPairs.has(pairKey(r))) continue;
  const m = domainOwners.get(r.base) ?? new Map<string, number>();
  m.set(pairKey(r), (m.get(pairKey(r)) ?? 0) + 1);
  domainOwners.set(r.base, m);
}
const domains = new Map<string, { owner: string; weight: number }>();
for (const [base, owners] of domainOwners) {
  const [owner] = byCount(owners)[0];
  const weight = [...owners.values()].reduce((a, b) => a + b, 0);
  domains.set(base, { owner, weight });
}
// Word-like labels of real hosts become further base domains of the same owner (the real snapshot has ~1,400).
const taken = new Set(domains.keys());
for (const r of usable) {
  if (domains.size >= BASE_DOMAINS) break;
  if (!selectedPairs.has(pairKey(r)) || r.host === r.base) continue;
  const label = r.host.split('.')[0];
  const candidate = `${label}.gov`;
  if (!/^[a-z]{6,}$/.test(label) || taken.has(candidate)) continue;
  taken.add(candidate);
  domains.set(candidate, { owner: pairKey(r), weight: 1 });
}

const labels = byCount(
  count(usable.filter((r) => r.host !== r.base && r.host.endsWith('.' + r.base)).map((r) => r.host.slice(0, -r.base.length - 1).split('.').pop()!)),
)
  .filter(([l]) => /^[a-z][a-z0-9-]{1,20}$/.test(l))
  .slice(0, 400);

const out = {
  source: 'GSA/site-scanning-analysis snapshots/standards.csv and the 2023-06-15 weekly snapshot subset (see data/real/README.md)',
  agencies: agencies.map(([name, weight]) => ({
    name,
    branch: branchOf.get(name) ?? 'Executive',
    weight,
    bureaus: [...selectedPairs]
      .filter((k) => k.startsWith(name + '\u0000'))
      .map((k) => ({
        name: k.split('\u0000')[1] || null,
        domains: [...domains].filter(([, d]) => d.owner === k).sort((a, b) => b[1].weight - a[1].weight || (a[0] < b[0] ? -1 : 1)).map(([base, d]) => [base, d.weight] as const),
      }))
      .filter((b) => b.domains.length > 0),
  })).filter((a) => a.bureaus.length > 0),
  subdomainLabels: labels.map(([l, n]) => [l, n] as const),
};
process.stdout.write(JSON.stringify(out) + '\n');
