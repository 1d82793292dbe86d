import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex, type DatasetSource, type Manifest } from '../../../dataset/artifact/format.ts';
import { DatasetIntegrityError } from '../../../dataset/artifact/verify.ts';
import { brotliDatabase, gzipDatabase } from '../../../adapters/node/datasets/dataset-writer.ts';
import { openBuiltDatasets, openDatasetBytes } from '../../../adapters/node/datasets/dataset-files.ts';
import { openEngine } from '../../../adapters/node/datasets/open-engine.ts';
import { documentFor } from '../../../adapters/node/doors/documents.ts';
import { startWorkerPool } from '../../../adapters/node/backends/worker-pool.ts';
import { shareDatasets } from '../../../adapters/node/backends/share-datasets.ts';
import { generatedDatabase } from '../../../harness/engine.ts';
import { fixture } from './cli-process.ts';

let dir: string;
let websitesRaw: Uint8Array;
let websitesGz: Uint8Array;
let ratesRaw: Uint8Array;

/** A build's output: the gzip'd files and their manifest. */
async function writeBuild(
  files: Partial<Record<'websites' | 'ceilingrates', Uint8Array>>,
  corrupt = false,
  source: DatasetSource = { kind: 'synthetic', label: 'test data', profile: 'test', seed: 1 },
): Promise<string> {
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
      source,
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
  it("answer a real snapshot's own dated paths (and no other date), on one thread and on several", async () => {
    const real: DatasetSource = { kind: 'real', label: 'a real week', repository: 'r', commit: 'c', date: '2025-06-09', licence: 'CC0', count: 50 };
    const dataDir = await writeBuild({ websites: websitesGz }, false, real);
    const { engine } = await openEngine({ dataDir });
    const pool = await startWorkerPool(shareDatasets(engine.apis, (await openEngine({ dataDir })).datasets), 2);
    try {
      for (const answer of [(url: string) => engine.handle({ method: 'GET', url }), (url: string) => pool.handle({ method: 'GET', url })]) {
        // The same answer, its links kept in the week asked for.
        const undated = engine.handle({ method: 'GET', url: '/websites?limit=2' }).body;
        expect((await answer('/snapshots/2025-06-09/websites?limit=2')).body).toBe(undated.replaceAll('"/websites?', '"/snapshots/2025-06-09/websites?'));
        // Following them pages through the week.
        const next = (JSON.parse((await answer('/snapshots/2025-06-09/websites?limit=2')).body) as { links: { next: string } }).links.next;
        expect(next).toBe('/snapshots/2025-06-09/websites?page=2&limit=2');
        expect((await answer(next)).body).toBe(
          engine.handle({ method: 'GET', url: '/websites?page=2&limit=2' }).body.replaceAll('"/websites?', '"/snapshots/2025-06-09/websites?'),
        );
        expect((await answer('/snapshots/2025-02-10/analysis')).status).toBe(404);
      }
    } finally {
      await pool.close();
    }
  });

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
    const labels = { websites: 'Real: the published Site Scanning week of 2025-06-09', ceilingrates: 'Synthetic: 250,000 generated ceiling rates' };
    const combined = JSON.parse(documentFor('/openapi.json', { method: 'GET', url: '/openapi.json' }, labels)!.body) as { info: { description: string } };
    expect(combined.info.description).toContain('Data: Real: the published Site Scanning week of 2025-06-09');
    expect(combined.info.description).toContain('Data: Synthetic: 250,000 generated ceiling rates');
    const rates = JSON.parse(documentFor('/openapi/ceiling-rates.json', { method: 'GET', url: '/openapi/ceiling-rates.json' }, labels)!.body) as {
      info: { description: string };
    };
    expect(rates.info.description).toContain('Synthetic');
    expect(rates.info.description).not.toContain('Site Scanning snapshot');
  });

  it("open from their Brotli transfer copies when the gzip'd files are not there, as an installed package holds them", async () => {
    const out = mkdtempSync(join(dir, 'package-'));
    const manifest: Manifest = { version: 'test', datasets: {} };
    for (const [name, raw] of [
      ['websites', websitesRaw],
      ['ceilingrates', ratesRaw],
    ] as const) {
      const gz = gzipDatabase(raw);
      const br = brotliDatabase(raw, { quality: 5, lgwin: 22 });
      writeFileSync(join(out, `${name}.sqlite.br`), br);
      manifest.datasets[name] = {
        name,
        file: `${name}.sqlite.gz`,
        bytes: gz.length,
        rawBytes: raw.length,
        sha256: await sha256Hex(gz),
        rows: {},
        source: { kind: 'synthetic', label: 'test data', profile: 'test', seed: 1 },
        transfer: { file: `${name}.sqlite.br`, encoding: 'br', bytes: br.length, sha256: await sha256Hex(br) },
      };
    }
    writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest));
    expect((await openBuiltDatasets(out)).map((d) => [d.name, d.rows])).toEqual([
      ['websites', { websites: 50 }],
      ['ceilingrates', { ceilingrates: 80 }],
    ]);
    // A transfer copy that is not the manifest's is refused like a gzip'd file.
    writeFileSync(join(out, 'ceilingrates.sqlite.br'), brotliDatabase(ratesRaw, { quality: 4, lgwin: 22 }));
    await expect(openBuiltDatasets(out)).rejects.toThrow(DatasetIntegrityError);
  });

  it('open an extra only when asked for by id, in place of the default of its dataset, and say how to get one not there', async () => {
    const out = await writeBuild({ websites: websitesGz, ceilingrates: gzipDatabase(ratesRaw) });
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    const extraRaw = (await generatedDatabase('ceilingrates', 30)).export();
    const extraGz = gzipDatabase(extraRaw);
    writeFileSync(join(out, 'rates-extra.sqlite.gz'), extraGz);
    const extra = { name: 'ceilingrates', file: 'rates-extra.sqlite.gz', bytes: extraGz.length, rawBytes: extraRaw.length, sha256: await sha256Hex(extraGz) };
    const source: DatasetSource = { kind: 'synthetic', label: 'an extra', profile: 'test', seed: 2 };
    manifest.extras = [
      { ...extra, name: 'ceilingrates', rows: { ceilingrates: 30 }, source, id: 'rates-extra', title: 'More rates' },
      { ...extra, name: 'ceilingrates', file: 'absent.sqlite.gz', rows: { ceilingrates: 30 }, source, id: 'absent', title: 'Rates not fetched' },
    ];
    writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest));
    expect((await openEngine({ dataDir: out })).datasets.map((d) => [d.name, d.rows])).toEqual([
      ['websites', { websites: 50 }],
      ['ceilingrates', { ceilingrates: 80 }],
    ]);
    const withExtra = await openEngine({ dataDir: out, extras: ['rates-extra'] });
    expect(withExtra.datasets.map((d) => [d.name, d.label])).toEqual([
      ['websites', 'test data'],
      ['ceilingrates', 'an extra'],
    ]);
    expect(JSON.parse(withExtra.engine.handle({ method: 'GET', url: '/api/v3/search/ceilingrates/?page_size=1' }).body).hits.total.value).toBe(30);
    await expect(openEngine({ dataDir: out, extras: ['absent'] })).rejects.toThrow(
      /^Rates not fetched: absent\.sqlite\.gz is not in .*; get it with `offline-gov-api fetch-extra absent --from <a deployment of the app>`$/,
    );
    await expect(openEngine({ dataDir: out, extras: ['nope'] })).rejects.toThrow(/has no extra dataset "nope" \(rates-extra, absent\)/);
  });

  it('a file that is not the one the manifest describes is refused', async () => {
    await expect(openBuiltDatasets(await writeBuild({ websites: websitesGz }, true))).rejects.toThrow(DatasetIntegrityError);
    await expect(openBuiltDatasets(await writeBuild({ websites: websitesGz }, true))).rejects.toThrow(/sha256 mismatch/);
  });

  it('no build: says where it looked and how to give one', async () => {
    await expect(openBuiltDatasets(join(dir, 'nothing'))).rejects.toThrow(
      /^no manifest\.json in .*nothing: pass --data <dir> .*npm run build.*--websites\/--ceilingrates/,
    );
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
