/**
 * The websites dataset: deterministic scan records at the real snapshot's scale and shape (data.md):
 * real agencies, bureaus and base domains (tools/vocab/websites-owners.json), ~63% completed scans, failed
 * scans with null scan fields, redirects (some to other domains), status codes, MIME types, design-system
 * class lists, DAP on about half the live sites, third-party service domains.
 */
import type { Database } from 'sql.js';
import type { DatasetGenerator } from './generator.ts';
import { Random } from '../random.ts';
import { compactWebsites, countWebsites, createWebsitesSchema, insertWebsites } from '../../engine/site-scanning/schema.ts';
import { NO_FURTHER_FIELDS, type ScanStatus, type WebsiteRecord } from '../../engine/site-scanning/record.ts';
import owners from '../vocab/websites-owners.json' with { type: 'json' };
import {
  CMS,
  DEAD_STATUS_CODES,
  DS_VERSIONS,
  FAILED_STATUSES,
  LIVE_STATUS_CODES,
  MIME_TYPES,
  THIRD_PARTY_DOMAINS,
  TITLE_WORDS,
  USA_CLASSES,
  USA_ELEMENTS,
} from '../vocab/websites-scan.ts';

interface Domain {
  base: string;
  weight: number;
  agency: string;
  bureau: string | null;
  branch: string;
}

/** Every base domain with its owner, in vocabulary order (stable, so the random seed alone decides the output). */
const DOMAINS: readonly Domain[] = owners.agencies.flatMap((a) =>
  a.bureaus.flatMap((b) =>
    b.domains.map(([base, weight]) => ({ base: String(base), weight: Number(weight), agency: a.name, bureau: b.name, branch: a.branch })),
  ),
);
const LABELS: readonly (readonly [string, number])[] = owners.subdomainLabels.map(([l, n]) => [String(l), Number(n)] as const);

/** The last day of the simulated weekly scan; scan dates fall in the seven days before it. */
const SCAN_WEEK_END = Date.UTC(2026, 7, 21, 23, 59, 59);
const WEEK_MS = 7 * 24 * 3600 * 1000;

/** Weighted picks over a long list, by binary search on the cumulative weights. */
class WeightedList<T> {
  private readonly cumulative: number[] = [];
  private readonly total: number;
  constructor(
    private readonly items: readonly T[],
    weight: (item: T) => number,
  ) {
    let sum = 0;
    for (const item of items) this.cumulative.push((sum += weight(item)));
    this.total = sum;
  }
  pick(random: Random): T {
    const r = random.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] > r) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo];
  }
}

function acronym(name: string): string {
  return name
    .split(/[\s,-]+/)
    .filter((w) => w && !/^(of|and|the|for|on|in|to|&)$/i.test(w))
    .map((w) => w[0].toUpperCase())
    .join('');
}

/** Unique target host names: the base domain itself first, then subdomains drawn from real labels. */
class HostNamer {
  private readonly taken = new Set<string>();
  private readonly labels = new WeightedList(LABELS, ([, n]) => Math.sqrt(n));
  constructor(private readonly random: Random) {}
  name(domain: Domain): string {
    if (!this.taken.has(domain.base)) return this.take(domain.base);
    for (let attempt = 0; ; attempt++) {
      const [label] = this.labels.pick(this.random);
      const host =
        attempt < 3
          ? `${label}.${domain.base}`
          : attempt < 6
            ? `${label}.${this.labels.pick(this.random)[0]}.${domain.base}`
            : `${label}${this.random.int(2, 999)}.${domain.base}`;
      if (!this.taken.has(host)) return this.take(host);
    }
  }
  private take(host: string): string {
    this.taken.add(host);
    return host;
  }
}

function scanDate(random: Random): string {
  return new Date(SCAN_WEEK_END - Math.floor(random.next() * WEEK_MS)).toISOString();
}

function classList(random: Random): string[] {
  const wanted = Math.max(1, Math.min(USA_CLASSES.length, Math.round(random.lognormal(18, 0.8))));
  const picked = new Set<string>();
  // The banner comes as a block on most design-system pages.
  if (random.chance(0.7)) for (const c of USA_CLASSES.slice(0, 8)) picked.add(c);
  while (picked.size < wanted) picked.add(USA_CLASSES[random.zipf(USA_CLASSES.length, 0.9)]);
  return [...picked].sort();
}

function thirdParties(random: Random, dap: boolean): string[] {
  const picked = new Set<string>();
  if (dap) {
    picked.add('dap.digitalgov.gov');
    picked.add('www.google-analytics.com');
    picked.add('www.googletagmanager.com');
  }
  const more = Math.floor(random.lognormal(2.5, 0.9)) - (dap ? 1 : 0);
  for (let i = 0; i < more; i++) picked.add(THIRD_PARTY_DOMAINS[random.zipf(THIRD_PARTY_DOMAINS.length, 1.05)]);
  return [...picked].sort();
}

function failedRecord(random: Random, domain: Domain, host: string, status: ScanStatus): WebsiteRecord {
  return {
    scan_date: scanDate(random),
    target_url_domain: domain.base,
    scan_status: status,
    final_url: null,
    final_url_live: null,
    final_url_domain: null,
    final_url_website: null,
    final_url_MIMEType: null,
    final_url_same_domain: null,
    final_url_status_code: null,
    final_url_same_website: null,
    target_url_404_test: null,
    target_url_redirects: null,
    ds_usa_classes: null,
    ds_usa_class_list: null,
    ds_usa_elements_list: null,
    ds_banner_heres_how: null,
    ds_semantic_version: null,
    ds_count: null,
    dap_detected_final_url: null,
    dap_parameters_final_url: null,
    og_title_final_url: null,
    og_description_final_url: null,
    main_element_present_final_url: null,
    robots_txt_detected: null,
    sitemap_xml_detected: null,
    third_party_service_domains: null,
    third_party_service_count: null,
    cms: null,
    target_url: host,
    target_url_branch: domain.branch,
    target_url_agency_owner: domain.agency,
    target_url_bureau_owner: domain.bureau,
    ...NO_FURTHER_FIELDS,
  };
}

function completedRecord(random: Random, domain: Domain, host: string, others: WeightedList<Domain>): WebsiteRecord {
  const redirects = random.chance(0.38);
  let finalWebsite = host;
  let finalDomain = domain.base;
  let path = '/';
  if (redirects) {
    const kind = random.weighted([
      ['other-domain', 25],
      ['www', 35],
      ['base', 15],
      ['path', 25],
    ] as const);
    if (kind === 'other-domain') {
      const target = random.chance(0.6) ? others.pick(random) : DOMAINS[random.int(0, DOMAINS.length - 1)];
      finalDomain = target.base;
      finalWebsite = random.chance(0.5) ? `www.${target.base}` : target.base;
    } else if (kind === 'www') {
      finalWebsite = host.startsWith('www.') ? host : `www.${host}`;
    } else if (kind === 'base') {
      finalWebsite = domain.base;
    }
    if (kind === 'path' || random.chance(0.3)) path = random.pick(['/home', '/index.html', '/about/', '/en/', '/main/', '/portal/']);
  }
  const live = random.chance(0.73);
  const statusCode = live ? random.weighted(LIVE_STATUS_CODES) : random.weighted(DEAD_STATUS_CODES);
  const mime = live
    ? random.weighted(MIME_TYPES)
    : random.weighted([
        ['text/html', 85],
        ['text/plain', 10],
        ['application/json', 5],
      ] as const);
  const html = mime === 'text/html' || mime === 'application/xhtml+xml';
  const page = live && html;
  const usesDs = page && random.chance(0.42);
  const classes = usesDs ? classList(random) : [];
  const elements = usesDs && random.chance(0.25) ? USA_ELEMENTS.filter(() => random.chance(0.4)) : [];
  const banner = classes.includes('usa-banner') && random.chance(0.8);
  const dap = live && random.chance(page ? 0.55 : 0.1);
  const parties = page || dap ? thirdParties(random, dap) : [];
  const title = `${random.pick(TITLE_WORDS)} ${random.pick(TITLE_WORDS)} | ${acronym(domain.agency)}`;
  return {
    scan_date: scanDate(random),
    target_url_domain: domain.base,
    scan_status: 'completed',
    final_url: `https://${finalWebsite}${path}`,
    final_url_live: live,
    final_url_domain: finalDomain,
    final_url_website: finalWebsite,
    final_url_MIMEType: mime,
    final_url_same_domain: finalDomain === domain.base,
    final_url_status_code: statusCode,
    final_url_same_website: finalWebsite === host,
    target_url_404_test: random.chance(live ? 0.8 : 0.4),
    target_url_redirects: redirects,
    ds_usa_classes: classes.length,
    ds_usa_class_list: classes.length ? classes : null,
    ds_usa_elements_list: elements.length ? elements : null,
    ds_banner_heres_how: banner,
    ds_semantic_version: usesDs && random.chance(0.6) ? random.weighted(DS_VERSIONS) : null,
    ds_count: usesDs ? Math.min(100, classes.length + (banner ? 20 : 0) + random.int(0, 40)) : page && random.chance(0.2) ? random.int(1, 10) : 0,
    dap_detected_final_url: dap,
    dap_parameters_final_url: dap && random.chance(0.5) ? { agency: acronym(domain.agency) } : null,
    og_title_final_url: page && random.chance(0.55) ? title : null,
    og_description_final_url: page && random.chance(0.4) ? `${random.pick(TITLE_WORDS)} information from the ${domain.bureau ?? domain.agency}.` : null,
    main_element_present_final_url: page && random.chance(0.6),
    robots_txt_detected: random.chance(live ? 0.7 : 0.3),
    sitemap_xml_detected: random.chance(live ? 0.45 : 0.1),
    third_party_service_domains: parties.length ? parties : null,
    third_party_service_count: parties.length,
    cms: page && random.chance(0.45) ? random.weighted(CMS) : null,
    target_url: host,
    target_url_branch: domain.branch,
    target_url_agency_owner: domain.agency,
    target_url_bureau_owner: domain.bureau,
    ...NO_FURTHER_FIELDS,
  };
}

/** `count` records from `seed`; pure, so tests can compare the engine with the same records in memory. */
export function generateWebsites(count: number, seed: number): WebsiteRecord[] {
  const random = new Random(seed);
  const byWeight = new WeightedList(DOMAINS, (d) => Math.pow(d.weight, 0.8));
  const namer = new HostNamer(random);
  // Spread records over the base domains like the real snapshot (every domain at full scale), then by weight.
  const spread = Math.min(DOMAINS.length, Math.round((count * DOMAINS.length) / 30000));
  const first = random.shuffle([...DOMAINS]).slice(0, spread);
  const records: WebsiteRecord[] = [];
  for (let i = 0; i < count; i++) {
    const domain = i < first.length ? first[i] : byWeight.pick(random);
    const host = namer.name(domain);
    const completed = random.chance(0.63);
    records.push(
      completed ? completedRecord(random, domain, host, byWeight) : failedRecord(random, domain, host, random.weighted(FAILED_STATUSES) as ScanStatus),
    );
  }
  return records;
}

export const websitesDataset: DatasetGenerator = {
  name: 'websites',
  title: 'Site Scanning: website scan records',
  seed: 20260821,
  profiles: { default: 30000, small: 2000 },
  createSchema: createWebsitesSchema,
  generate(db: Database, count: number, seed: number): void {
    insertWebsites(db, generateWebsites(count, seed));
    compactWebsites(db);
  },
  countRows: (db: Database) => ({ websites: countWebsites(db) }),
};
