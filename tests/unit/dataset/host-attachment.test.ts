/**
 * The dataset host and a dataset's attachment (the websites' weeks, engine/dataset-registry.ts) kept in its store:
 * found by the registry's id, opened on the first dated request or list of weeks, answered there beside the active
 * dataset (which stays); a copy kept in an older form refused with why, said to the views, and the dated paths then
 * held by the active dataset alone; a copy installed later answering at once.
 */
import { brotliCompressSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SqlJsStatic } from 'sql.js';
import { DatasetHost, type ImportedDataset, type ImportedStore } from '../../../dataset/host/index.ts';
import { pack } from '../../../dataset/artifact/unpack.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { nodeBrotli } from '../../../adapters/node/datasets/brotli-sync.ts';
import { datasetDefinition } from '../../../engine/dataset-registry.ts';
import { recordFromStored } from '../../../engine/site-scanning/stored-record.ts';
import { WeeksWriter } from '../../../engine/site-scanning/weeks-writer.ts';
import { weeksFeatures } from '../../../dataset/websites/weeks.ts';
import { built, type BuiltFile } from '../helpers/built-file.ts';

const DATA = 'https://app.example/data/';
const WEEKS = ['2026-01-05', '2026-01-12'];
const ATTACHMENT = datasetDefinition('websites').attachment!.id;

let SQL: SqlJsStatic;
let websites: BuiltFile;
/** A weeks database of two weeks of the generated sites (the second without its first site), and one of format 3. */
let weeksFile: Uint8Array;
let olderFile: Uint8Array;

beforeAll(async () => {
  SQL = await loadSqlJs();
  websites = await built('websites', 20);
  const source = new SQL.Database(websites.raw);
  const records = source.exec('SELECT record FROM websites ORDER BY sort_key')[0].values.map(([r]) => recordFromStored(String(r)));
  source.close();
  const db = new SQL.Database();
  const writer = new WeeksWriter(
    db,
    WEEKS.map((date) => ({ date })),
    (raw) => new Uint8Array(brotliCompressSync(raw)),
  );
  const sites = records.map((r) => `data/${r.target_url}.json`);
  writer.add(WEEKS[1], records.slice(1), sites.slice(1));
  writer.add(WEEKS[0], records, sites);
  writer.finish();
  weeksFile = db.export();
  db.run('UPDATE website_week_format SET version = 3');
  olderFile = db.export();
  db.close();
});

/** The store of kept copies, with one attachment copy of these bytes. */
async function storeWith(raw: Uint8Array): Promise<ImportedStore> {
  const meta: ImportedDataset = {
    id: 'kept-weeks',
    dataset: 'websites',
    fileName: 'Every week',
    format: 'sqlite',
    formatLabel: 'Built-in dataset (fetched on demand)',
    importedAt: '2026-01-20T00:00:00.000Z',
    rows: {},
    rowsImported: 0,
    rowsRejected: 0,
    sourceBytes: raw.length,
    bytes: raw.length,
    rawBytes: raw.length,
    attachment: ATTACHMENT,
  };
  const file = await pack(raw);
  return {
    activeImports: async () => ({}),
    readImport: async (id) => (id === meta.id ? { meta, file } : null),
    keptAttachment: async (id) => (id === ATTACHMENT ? meta.id : null),
  };
}

function hostWith(imports: ImportedStore): { host: DatasetHost; logged: string[] } {
  const manifest = { version: 'v1', datasets: { websites: websites.artifact } };
  const fetch = async (url: string): Promise<Response> =>
    url === `${DATA}manifest.json` ? new Response(JSON.stringify(manifest)) : new Response(websites.gz as Uint8Array<ArrayBuffer>);
  const logged: string[] = [];
  const host = new DatasetHost({ sqlJs: loadSqlJs, fetch, imports, brotli: async () => nodeBrotli, log: (text) => logged.push(text) });
  return { host, logged };
}

const body = async (host: DatasetHost, url: string) => {
  const answer = await host.handle({ method: 'GET', url });
  return { status: answer.status, json: JSON.parse(answer.body) as Record<string, unknown> };
};

describe('a dataset’s attachment kept by the host', () => {
  it('is found by its id and answers every week it holds beside the active dataset, which stays', async () => {
    const { host } = hostWith(await storeWith(weeksFile));
    await host.init({ dataUrl: DATA });
    expect((await body(host, '/snapshots')).json).toEqual({
      snapshots: [
        { date: WEEKS[0], count: 20 },
        { date: WEEKS[1], count: 19 },
      ],
    });
    expect((await body(host, `/snapshots/${WEEKS[0]}/analysis`)).json).toMatchObject({ total: 20 });
    expect((await body(host, `/snapshots/${WEEKS[1]}/websites?limit=1`)).json).toMatchObject({ meta: { totalItems: 19 } });
    expect((await body(host, '/websites?limit=1')).json).toMatchObject({ meta: { totalItems: 20 } });
    expect(host.attachmentRefusal('websites')).toBeNull();
    expect(await weeksFeatures(host).weeksRefused()).toBeNull();
  });

  it('refuses a copy kept in an older form, says why, and answers a week it installs later', async () => {
    const { host, logged } = hostWith(await storeWith(olderFile));
    await host.init({ dataUrl: DATA });
    expect((await body(host, `/snapshots/${WEEKS[0]}/analysis`)).status).toBe(404);
    expect((await body(host, '/snapshots')).json).toEqual({ snapshots: [] });
    const why = 'the weeks dataset kept here is in an older form (3, not 4): delete it and load it again';
    expect(host.attachmentRefusal('websites')).toBe(why);
    expect(await weeksFeatures(host).weeksRefused()).toBe(why);
    expect(logged).toContain(`dataset host: the kept ${ATTACHMENT} cannot be opened`);
    // Loading the weeks again installs the new copy: it answers, and nothing is refused any more.
    await host.attach('websites', new SQL.Database(weeksFile));
    expect((await body(host, `/snapshots/${WEEKS[0]}/analysis`)).json).toMatchObject({ total: 20 });
    expect(host.attachmentRefusal('websites')).toBeNull();
    await expect(host.attach('websites', new SQL.Database(olderFile))).rejects.toThrow('older form (3, not 4)');
    expect((await body(host, `/snapshots/${WEEKS[1]}/analysis`)).json).toMatchObject({ total: 19 });
  });
});
