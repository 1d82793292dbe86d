import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex, type Manifest } from '../../../dataset/artifact/format.ts';
import { DatasetIntegrityError } from '../../../dataset/artifact/verify.ts';
import { gzipDatabase } from '../../../tools/gzip-database.ts';
import { openBuiltDatasets, openDatasetBytes } from '../../../adapters/node/dataset-files.ts';
import { openEngine } from '../../../adapters/node/open-engine.ts';
import { documentFor } from '../../../adapters/node/documents.ts';
import { generatedDatabase } from '../helpers/engine.ts';
import { fixture } from './cli-process.ts';

let dir: string;
let websitesRaw: Uint8Array;
let websitesGz: Uint8Array;
let ratesRaw: Uint8Array;

/** A build's output: the gzip'd files and their manifest. */
async function writeBuild(files: Partial<Record<'websites' | 'ceilingrates', Uint8Array>>, corrupt = false): Promise<string> {
  const out = mkdtempSync(join(dir, 'build-'));
  const manifest: Manifest = { version: 'test', datasets: {} };
  for (const [name, gz] of Object.entries(files) as ['websites' | 'ceilingrates', Uint8Array][]) {
    const file = `${name}.sqlite.gz`;
    manifest.datasets[name] = {
      name,
      file,
      bytes: gz.length,
      rawBytes: 0,
      sha256: await sha256Hex(gz),
      rows: {},
      source: { kind: 'synthetic', label: 'test data', profile: 'test', seed: 1 },
    };
    const written = corrupt ? gz.map((b, i) => (i === gz.length - 10 ? b ^ 0xff : b)) : gz;
    writeFileSync(join(out, file), written);
  }
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest));
  return out;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doors-datasets-'));
  websitesRaw = (await generatedDatabase('websites', 50)).export();
  websitesGz = gzipDatabase(websitesRaw);
  ratesRaw = (await generatedDatabase('ceilingrates', 80)).export();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('built datasets', () => {
  it("open when their bytes are the manifest's, with their row counts", async () => {
    const opened = await openBuiltDatasets(await writeBuild({ websites: websitesGz, ceilingrates: gzipDatabase(ratesRaw) }));
    expect(opened.map((d) => [d.name, d.rows])).toEqual([
      ['websites', { websites: 50 }],
      ['ceilingrates', { ceilingrates: 80 }],
    ]);
  });

  it("carry the manifest's word on where their records come from, which the OpenAPI documents repeat", async () => {
    const opened = await openBuiltDatasets(await writeBuild({ websites: websitesGz }));
    expect(opened[0].label).toBe('test data');
    const labels = { websites: 'Real: the published Site Scanning snapshot of 2025-06-09', ceilingrates: 'Synthetic: 250,000 generated ceiling rates' };
    const combined = JSON.parse(documentFor('/openapi.json', { method: 'GET', url: '/openapi.json' }, labels)!.body) as { info: { description: string } };
    expect(combined.info.description).toContain('Data: Real: the published Site Scanning snapshot of 2025-06-09');
    expect(combined.info.description).toContain('Data: Synthetic: 250,000 generated ceiling rates');
    const rates = JSON.parse(documentFor('/openapi/ceiling-rates.json', { method: 'GET', url: '/openapi/ceiling-rates.json' }, labels)!.body) as {
      info: { description: string };
    };
    expect(rates.info.description).toContain('Synthetic');
    expect(rates.info.description).not.toContain('Site Scanning snapshot');
  });

  it('a file that is not the one the manifest describes is refused', async () => {
    await expect(openBuiltDatasets(await writeBuild({ websites: websitesGz }, true))).rejects.toThrow(DatasetIntegrityError);
    await expect(openBuiltDatasets(await writeBuild({ websites: websitesGz }, true))).rejects.toThrow(/sha256 mismatch/);
  });

  it('no build: says how to make one', async () => {
    await expect(openBuiltDatasets(join(dir, 'nothing'))).rejects.toThrow(/npm run build/);
  });
});

describe("the user's own files", () => {
  it("SQLite, plain or gzip'd, of the right dataset", async () => {
    expect((await openDatasetBytes(websitesRaw, 'websites')).rows).toEqual({ websites: 50 });
    expect((await openDatasetBytes(websitesRaw, 'websites', '/home/me/sites.sqlite')).label).toBe('Your file: sites.sqlite');
    expect((await openDatasetBytes(websitesGz, 'websites')).rows).toEqual({ websites: 50 });
    await expect(openDatasetBytes(ratesRaw, 'websites')).rejects.toThrow(/no Site Scanning table \(websites\); it holds Ceiling rates/);
  });

  it('an engine from bytes and files only, without a build: the other API answers its own 503', async () => {
    const { engine, datasets } = await openEngine({ dataDir: join(dir, 'nothing'), bytes: { websites: websitesRaw } });
    expect(datasets.map((d) => d.name)).toEqual(['websites']);
    expect(engine.handle({ method: 'GET', url: '/websites?limit=1' }).status).toBe(200);
    expect(engine.handle({ method: 'GET', url: '/api/v3/search/ceilingrates/' }).status).toBe(503);
    const csv = await openEngine({ dataDir: false, files: { ceilingrates: fixture('ceilingrates-export.csv') } });
    expect(csv.datasets[0].report?.rowsImported).toBeGreaterThan(0);
  });

  it('a replacement takes the place of the built dataset', async () => {
    const build = await writeBuild({ websites: websitesGz, ceilingrates: gzipDatabase(ratesRaw) });
    const { engine, datasets } = await openEngine({ dataDir: build, files: { websites: fixture('websites-current.csv') } });
    expect(datasets.map((d) => [d.name, d.origin.endsWith('websites-current.csv') || d.origin])).toEqual([
      ['websites', true],
      ['ceilingrates', 'ceilingrates.sqlite.gz (test)'],
    ]);
    const total = JSON.parse(engine.handle({ method: 'GET', url: '/websites?limit=1' }).body).meta.totalItems;
    expect(total).toBe(datasets[0].rows.websites);
  });
});
