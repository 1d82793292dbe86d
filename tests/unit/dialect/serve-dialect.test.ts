/**
 * Issue 41, done when: `offline-gov-api serve --dialect production` answers a recorded 2026 production request with
 * the recorded answer's shape, key for key, and the same build answers the interface's shape without the flag.
 * The bundled command line in a child process, over HTTP, at production's path; the production server answers on
 * two worker threads (the dialect travels with each request), the interface one on one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { insertCeilingRates } from '../../../engine/ceilingrates/schema.ts';
import { insertWebsites } from '../../../engine/site-scanning/schema.ts';
import { WEBSITE_FIELDS, type WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { emptyDatabase } from '../../../harness/engine.ts';
import { serveCli, type Served } from '../node/cli-process.ts';
import { engineerOnes, ENVELOPE, queryOf, shapeOf, SITE_2022 } from './recorded-data.ts';

/** The recorded request, at production's gateway path: only the origin differs from production's URL. */
const RECORDED_PATH = `/acquisition/calc/v3/api/ceilingrates/${queryOf(ENVELOPE.url)}`;

let dir: string;
let production: Served;
let plain: Served;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dialect-serve-'));
  const rates = await emptyDatabase('ceilingrates');
  insertCeilingRates(rates, engineerOnes());
  const sites = await emptyDatabase('websites');
  const recorded: Record<string, unknown> = SITE_2022.record;
  insertWebsites(sites, [Object.fromEntries(WEBSITE_FIELDS.map(([name]) => [name, recorded[name] ?? null])) as unknown as WebsiteRecord]);
  writeFileSync(join(dir, 'rates.sqlite'), rates.export());
  writeFileSync(join(dir, 'websites.sqlite'), sites.export());
  const files = ['--no-app', '--data', dir, '--ceilingrates', join(dir, 'rates.sqlite'), '--websites', join(dir, 'websites.sqlite')];
  [production, plain] = await Promise.all([serveCli([...files, '--workers', '2', '--dialect', 'production']), serveCli([...files, '--workers', '1'])]);
}, 60_000);

afterAll(async () => {
  await Promise.all([production?.stop(), plain?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

const get = async (served: Served, path: string) => (await fetch(served.url + path)).json();

describe('serve --dialect production', () => {
  it('says so when it starts', () => {
    expect(production.stderr()).toMatch(/listening on .*production's dialect/);
    expect(plain.stderr()).not.toMatch(/production's dialect/);
  });

  it("answers the recorded 2026 request with the recorded answer's shape, key for key", async () => {
    const answer = await get(production, RECORDED_PATH);
    expect(shapeOf(answer)).toEqual(shapeOf(ENVELOPE.raw));
    expect(Object.keys(answer.aggregations)).toEqual(Object.keys(ENVELOPE.raw.aggregations));
    expect(answer._shards).toEqual(ENVELOPE.raw._shards);
    const recorded = ENVELOPE.raw.hits.hits[0];
    expect(answer.hits.hits.find((h: { _id: string }) => h._id === recorded._id)._source).toEqual(recorded._source);
  });

  it("the same build without the flag answers the interface's shape", async () => {
    const answer = await get(plain, RECORDED_PATH);
    expect(shapeOf(answer)).not.toEqual(shapeOf(ENVELOPE.raw));
    expect(answer._shards.total).toBe(1);
    expect(answer.hits.hits[0]._index).toBe('ceilingrates');
    expect(typeof answer.hits.hits[0]._source.security_clearance).toBe('string');
    expect(answer.hits.hits[0]._source).not.toHaveProperty('data_source');
  });

  it("Site Scanning: production's names with the flag, the 2.0 interface's without", async () => {
    const ours = await get(production, '/technology/site-scanning/v1/websites/gsa.gov');
    expect(ours.initial_domain).toBe('gsa.gov');
    expect(ours.agency).toBe('General Services Administration');
    expect(ours).not.toHaveProperty('target_url');
    const interfaced = await get(plain, '/technology/site-scanning/v1/websites/gsa.gov');
    expect(interfaced.target_url).toBe('gsa.gov');
    expect(interfaced).not.toHaveProperty('initial_domain');
  });
});
