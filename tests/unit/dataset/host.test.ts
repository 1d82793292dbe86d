/**
 * The dataset host in Node: sql.js for Node, a fake server for the build's files and an in-memory
 * imported-dataset store. What a page sees through the DB worker: which dataset opens first, that a
 * request waits only for its own dataset, that one failure leaves the other answering, what a reload and
 * a reset fetch again, and that a failed switch keeps the open database.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DatasetHost, type ImportedDataset, type ImportedStore, type LoadProgress } from '../../../dataset/host/index.ts';
import type { DatasetArtifact, Manifest } from '../../../dataset/artifact/format.ts';
import { pack } from '../../../dataset/artifact/unpack.ts';
import {
  isOtherUnpackedFile,
  keptSha256,
  unpackedFileName,
  type KeptDatabase,
  type StoredDatabase,
  type UnpackedStore,
} from '../../../dataset/artifact/unpacked-store.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import type { DatasetName } from '../../../engine/http/types.ts';
import { built, builtFrom, type BuiltFile } from '../helpers/built-file.ts';
import { makePatch } from '../../../tools/binary-diff.ts';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { sha256Hex, type PatchFile } from '../../../dataset/artifact/format.ts';
import type { Decoders } from '../../../dataset/artifact/unpack.ts';
import { APIS } from '../../../engine/index.ts';
import type { VerifiedFiles } from '../../../dataset/artifact/acquire.ts';

const DATA = 'https://app.example/data/';
const RATES_URL = '/api/v3/search/ceilingrates/?page=1';
const WEBSITES_URL = '/websites?limit=1';

let websites: BuiltFile;
let rates: BuiltFile;
beforeAll(async () => {
  [websites, rates] = await Promise.all([built('websites', 30), built('ceilingrates', 40)]);
});

/**
 * A server of a manifest and its files. `hold(name)` keeps a file's response back until the returned
 * function is called; `bodies` may replace a file's bytes (null: 404); every request is recorded.
 */
function server(files: BuiltFile[], version = 'v1') {
  const manifest: Manifest = { version, datasets: Object.fromEntries(files.map((f) => [f.artifact.name, f.artifact])) };
  const bodies = new Map<string, Uint8Array | null>(files.map((f) => [`${DATA}${f.artifact.file}`, f.gz]));
  const held = new Map<string, Promise<void>>();
  const requests: { url: string; cache: RequestCache }[] = [];
  return {
    manifest,
    bodies,
    requests,
    hold(name: DatasetName): () => void {
      let release!: () => void;
      held.set(`${DATA}${name}.sqlite.gz`, new Promise<void>((resolve) => (release = resolve)));
      return release;
    },
    fetch: async (url: string, init: RequestInit): Promise<Response> => {
      requests.push({ url, cache: init.cache ?? 'default' });
      if (url === `${DATA}manifest.json`) return new Response(JSON.stringify(manifest));
      await held.get(url);
      const body = bodies.get(url);
      return body ? new Response(body as Uint8Array<ArrayBuffer>) : new Response('missing', { status: 404 });
    },
  };
}

type MemoryStore = ImportedStore & { items: Map<string, { meta: ImportedDataset; file: Uint8Array }>; active: Partial<Record<DatasetName, string>> };

function memoryStore(): MemoryStore {
  const items = new Map<string, { meta: ImportedDataset; file: Uint8Array }>();
  const active: Partial<Record<DatasetName, string>> = {};
  return {
    items,
    active,
    activeImports: async () => ({ ...active }),
    readImport: async (id) => items.get(id) ?? null,
  };
}

async function storeImport(store: MemoryStore, id: string, source: BuiltFile): Promise<void> {
  const file = await pack(source.raw);
  const meta: ImportedDataset = {
    id,
    dataset: source.artifact.name,
    fileName: `${id}.csv`,
    format: 'csv',
    formatLabel: 'CSV',
    importedAt: '2026-01-02T03:04:05.000Z',
    rows: source.artifact.rows,
    rowsImported: 1,
    rowsRejected: 0,
    sourceBytes: 1,
    bytes: file.length,
    rawBytes: source.raw.length,
  };
  store.items.set(id, { meta, file });
}

/** Unpacked databases in memory, as the origin-private file system keeps them (one per dataset, named by sha256). */
function unpackedStore({ readMs = 5, files = new Map<string, StoredDatabase>() } = {}) {
  const prepared = new Map<string, Uint8Array>();
  /** Every read, as the dataset's name when it starts and `name done` when it resolves. */
  const reads: string[] = [];
  const store = {
    files,
    prepared,
    reads,
    writes: 0,
    preparedWrites: 0,
    async read(artifact: DatasetArtifact, { background = false } = {}): Promise<KeptDatabase | null> {
      reads.push(background ? `${artifact.name} (background)` : artifact.name);
      if (readMs > 0) await new Promise((resolve) => setTimeout(resolve, readMs));
      reads.push(`${artifact.name} done`);
      const kept = files.get(unpackedFileName(artifact));
      if (!kept || kept.raw.length !== artifact.rawBytes) return null;
      return { ...kept, raw: kept.raw.slice(), prepared: prepared.get(unpackedFileName(artifact, 'prepared'))?.slice() ?? null };
    },
    async readKept(name: DatasetName, wanted: (sha256: string) => boolean) {
      const kept = [...files.keys()].filter((file) => keptSha256(file, name, 'sqlite'));
      if (kept.length !== 1 || !wanted(keptSha256(kept[0], name, 'sqlite')!)) return null;
      const sha256 = keptSha256(kept[0], name, 'sqlite')!;
      return { sha256, database: { ...files.get(kept[0])!, raw: files.get(kept[0])!.raw.slice(), prepared: null } };
    },
    async write(artifact: DatasetArtifact, kept: StoredDatabase) {
      store.writes++;
      for (const name of Array.from(files.keys())) if (isOtherUnpackedFile(name, artifact)) files.delete(name);
      for (const name of Array.from(prepared.keys())) if (isOtherUnpackedFile(name, artifact)) prepared.delete(name);
      files.set(unpackedFileName(artifact), { ...kept, raw: kept.raw.slice() });
    },
    async writePrepared(artifact: DatasetArtifact, bytes: Uint8Array) {
      store.preparedWrites++;
      prepared.set(unpackedFileName(artifact, 'prepared'), bytes.slice());
    },
  } satisfies UnpackedStore & Record<string, unknown>;
  return store;
}

function hostOver(fake: ReturnType<typeof server>, store = memoryStore(), unpacked: UnpackedStore | null = null) {
  const logged: string[] = [];
  const host = new DatasetHost({ sqlJs: loadSqlJs, fetch: fake.fetch, imports: store, unpacked, log: (text) => logged.push(text) });
  return { host, logged };
}

async function total(host: DatasetHost, url: string): Promise<number> {
  const answer = await host.handle({ method: 'GET', url });
  expect(answer.status).toBe(200);
  const body = JSON.parse(answer.body) as { meta?: { totalItems: number }; hits?: { total: { value: number } } };
  return body.meta?.totalItems ?? body.hits!.total.value;
}

describe('loading', () => {
  it("opens the first view's dataset first, and answers its requests while the other is still downloading", async () => {
    const fake = server([websites, rates]);
    const { host } = hostOver(fake);
    const release = fake.hold('websites');
    const ready: (DatasetName | null)[] = [];
    const loading = host.init({ dataUrl: DATA, first: 'ceilingrates' }, (p: LoadProgress) => {
      if (p.phase === 'ready') ready.push(p.dataset);
    });
    expect(await total(host, RATES_URL)).toBe(40);
    expect(host.status().datasets.find((d) => d.name === 'websites')!.loaded).toBe(false);
    release();
    const status = await loading;
    expect(ready).toEqual(['ceilingrates', 'websites', null]);
    expect(status.ready).toBe(true);
    expect(await total(host, WEBSITES_URL)).toBe(30);
    // Both downloads started before either opened.
    expect(fake.requests.map((r) => r.url)).toEqual([`${DATA}manifest.json`, `${DATA}ceilingrates.sqlite.gz`, `${DATA}websites.sqlite.gz`]);
  });

  /** A load of both datasets, rates first: the dataset files' requests and the progress steps `noted` names, in order. */
  async function requestsAndSteps(noted: (p: LoadProgress) => string | null): Promise<string[]> {
    const fake = server([websites, rates]);
    const events: string[] = [];
    const fetch = (url: string, init: RequestInit) => {
      if (url.endsWith('.sqlite.gz')) events.push(`request ${url.slice(DATA.length)}`);
      return fake.fetch(url, init);
    };
    // As in a browser on a first visit: a store of kept copies with nothing in it yet (a miss takes no time).
    const host = new DatasetHost({ sqlJs: loadSqlJs, fetch, imports: memoryStore(), unpacked: unpackedStore({ readMs: 0 }), log: () => {} });
    await host.init({ dataUrl: DATA, first: 'ceilingrates' }, (p) => {
      const step = noted(p);
      if (step !== null) events.push(step);
    });
    return events;
  }

  it('asks for the next file before the CPU work of opening the one that arrived, so the link is not idle meanwhile', async () => {
    const events = await requestsAndSteps((p) => (p.dataset && (p.phase === 'decompress' || p.phase === 'open') ? `${p.dataset} ${p.phase}` : null));
    expect(events.slice(0, 3)).toEqual(['request ceilingrates.sqlite.gz', 'request websites.sqlite.gz', 'ceilingrates decompress']);
  });

  it('asks for the next file once the last byte of one has arrived, while that one is still being checked', async () => {
    const events = await requestsAndSteps((p) => (p.dataset === 'ceilingrates' && p.phase === 'verify' ? 'ceilingrates checked' : null));
    expect(events).toEqual(['request ceilingrates.sqlite.gz', 'request websites.sqlite.gz', 'ceilingrates checked']);
  });

  it('reports a corrupt dataset in its status and answers 503 for it, while the other answers', async () => {
    const fake = server([websites, rates]);
    const corrupt = websites.gz.slice();
    corrupt[corrupt.length - 20] ^= 0xff;
    fake.bodies.set(`${DATA}websites.sqlite.gz`, corrupt);
    const { host, logged } = hostOver(fake);
    const status = await host.init({ dataUrl: DATA });
    const site = status.datasets.find((d) => d.name === 'websites')!;
    expect(site.loaded).toBe(false);
    expect(site.error).toMatch(/^websites\.sqlite\.gz: sha256 mismatch \(manifest [0-9a-f]{64}, received [0-9a-f]{64}\)/);
    expect(status.ready).toBe(false);
    expect((await host.handle({ method: 'GET', url: WEBSITES_URL })).status).toBe(503);
    expect(await total(host, RATES_URL)).toBe(40);
    expect(logged).toEqual(['dataset host: websites failed to load']);
  });

  it('reports a manifest that names an unknown dataset on every dataset, and requests still get an answer', async () => {
    const fake = server([websites]);
    (fake.manifest.datasets as Record<string, unknown>).other = websites.artifact;
    const { host } = hostOver(fake);
    const status = await host.init({ dataUrl: DATA });
    expect(status.datasets.map((d) => d.error)).toEqual(['manifest: unknown dataset "other"', 'manifest: unknown dataset "other"']);
    expect((await host.handle({ method: 'GET', url: RATES_URL })).status).toBe(503);
  });

  it("opens a dataset's active import instead of downloading the build's", async () => {
    const fake = server([websites, rates]);
    const store = memoryStore();
    await storeImport(store, 'mine', await built('websites', 5));
    store.active.websites = 'mine';
    const { host } = hostOver(fake, store);
    const status = await host.init({ dataUrl: DATA });
    expect(status.datasets.find((d) => d.name === 'websites')).toMatchObject({ loaded: true, importId: 'mine', importName: 'mine.csv', sha256: null });
    expect(fake.requests.map((r) => r.url)).not.toContain(`${DATA}websites.sqlite.gz`);
    expect(await total(host, WEBSITES_URL)).toBe(5);
  });
});

describe('reload and reset', () => {
  it('reload downloads only the datasets whose bytes changed', async () => {
    const fake = server([websites, rates]);
    const { host } = hostOver(fake);
    const before = await host.init({ dataUrl: DATA });
    const more = await built('ceilingrates', 60);
    fake.manifest.version = 'v2';
    fake.manifest.datasets.ceilingrates = more.artifact;
    fake.bodies.set(`${DATA}ceilingrates.sqlite.gz`, more.gz);
    fake.requests.length = 0;
    const after = await host.reload();
    expect(fake.requests).toEqual([
      { url: `${DATA}manifest.json`, cache: 'no-cache' },
      { url: `${DATA}ceilingrates.sqlite.gz`, cache: 'no-cache' },
    ]);
    expect(after.version).toBe('v2');
    expect(after.datasets.find((d) => d.name === 'websites')).toMatchObject({ version: 'v2', loadedAt: before.datasets[0].loadedAt });
    expect(await total(host, RATES_URL)).toBe(60);
  });

  it('reset forgets every dataset and loads them all again past the HTTP cache', async () => {
    const fake = server([websites, rates]);
    const { host } = hostOver(fake);
    await host.init({ dataUrl: DATA });
    fake.requests.length = 0;
    const status = await host.reset();
    expect(fake.requests.map((r) => r.cache)).toEqual(['reload', 'reload', 'reload']);
    expect(status.ready).toBe(true);
    expect(await total(host, WEBSITES_URL)).toBe(30);
  });

  it('gives the open database file for download and keeps the bind: the next answer does not bind again', async () => {
    const { host } = hostOver(server([websites, rates]));
    await host.init({ dataUrl: DATA, first: 'ceilingrates' });
    expect(await total(host, RATES_URL)).toBe(40);
    const bind = vi.spyOn(
      APIS.find((api) => api.dataset === 'ceilingrates')!,
      'bind',
    );
    const file = await host.exportDatabase('ceilingrates');
    const SQL = await loadSqlJs();
    const copy = new SQL.Database(file);
    expect(copy.exec('SELECT count(*) FROM ceilingrates')[0].values[0][0]).toBe(40);
    copy.close();
    expect(await total(host, RATES_URL)).toBe(40);
    expect(bind).not.toHaveBeenCalled();
    bind.mockRestore();
  });

  it('refuses reload and reset before init', async () => {
    const { host } = hostOver(server([websites, rates]));
    await expect(host.reload()).rejects.toThrow('reload: init has not been called');
    await expect(host.reset()).rejects.toThrow('reset: init has not been called');
  });
});

describe('the unpacked copy kept on this machine', () => {
  const datasetFiles = (fake: ReturnType<typeof server>) => fake.requests.filter((r) => r.url.endsWith('.sqlite.gz')).map((r) => r.url);

  it('is written after the first load, and a later load opens from it with no download or gunzip', async () => {
    const kept = unpackedStore();
    const first = server([websites, rates]);
    const lastModified = 'Tue, 01 Dec 2026 10:00:00 GMT';
    const dated = {
      ...first,
      fetch: async (url: string, init: RequestInit) => {
        const response = await first.fetch(url, init);
        return new Response(response.body, { status: response.status, headers: { 'last-modified': lastModified } });
      },
    };
    await hostOver(dated, memoryStore(), kept).host.init({ dataUrl: DATA });
    await vi.waitFor(() => expect(kept.files.size).toBe(2));
    expect(kept.files.get(unpackedFileName(rates.artifact))!.raw).toEqual(rates.raw);

    const second = server([websites, rates]);
    const { host } = hostOver(second, memoryStore(), kept);
    const status = await host.init({ dataUrl: DATA });
    expect(datasetFiles(second)).toEqual([]);
    expect(await total(host, RATES_URL)).toBe(40);
    expect(await total(host, WEBSITES_URL)).toBe(30);
    const rateStatus = status.datasets.find((d) => d.name === 'ceilingrates')!;
    expect(rateStatus).toMatchObject({
      loaded: true,
      sha256: rates.artifact.sha256,
      rawBytes: rates.raw.length,
      fileDate: new Date(lastModified).toISOString(),
    });
    // Opened from the kept copy: nothing written again.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(kept.writes).toBe(2);
  });

  it('is not trusted when its size differs from the manifest: the download answers and replaces it', async () => {
    const kept = unpackedStore();
    kept.files.set(unpackedFileName(rates.artifact), { raw: rates.raw.slice(0, 1000), fileDate: null });
    const fake = server([websites, rates]);
    const { host } = hostOver(fake, memoryStore(), kept);
    await host.init({ dataUrl: DATA });
    expect(datasetFiles(fake)).toContain(`${DATA}ceilingrates.sqlite.gz`);
    expect(await total(host, RATES_URL)).toBe(40);
    await vi.waitFor(() => expect(kept.files.get(unpackedFileName(rates.artifact))!.raw.length).toBe(rates.raw.length));
  });

  it("of another build is neither used nor kept: the new build's file replaces it", async () => {
    const kept = unpackedStore();
    const older = await built('ceilingrates', 25);
    kept.files.set(unpackedFileName(older.artifact), { raw: older.raw, fileDate: null });
    const fake = server([websites, rates]);
    const { host } = hostOver(fake, memoryStore(), kept);
    await host.init({ dataUrl: DATA });
    expect(await total(host, RATES_URL)).toBe(40);
    await vi.waitFor(() => expect([...kept.files.keys()].sort()).toEqual([unpackedFileName(rates.artifact), unpackedFileName(websites.artifact)].sort()));
  });

  it("keeps the engine's prepared index once the load is over; a later load binds from it and keeps nothing new", async () => {
    const kept = unpackedStore();
    const first = hostOver(server([websites, rates]), memoryStore(), kept).host;
    await first.init({ dataUrl: DATA, first: 'ceilingrates' });
    // The first view's dataset was bound during the load; the other binds on its first request.
    await vi.waitFor(() => expect([...kept.prepared.keys()]).toEqual([unpackedFileName(rates.artifact, 'prepared')]));
    expect(kept.files.get(unpackedFileName(rates.artifact))!.rows).toEqual(rates.artifact.rows);

    const { host, logged } = hostOver(server([websites, rates]), memoryStore(), kept);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await host.init({ dataUrl: DATA, first: 'ceilingrates' });
    expect(await total(host, RATES_URL)).toBe(40);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(kept.preparedWrites).toBe(1);
    expect(warn).not.toHaveBeenCalled();
    expect(logged).toEqual([]);
    warn.mockRestore();
  });

  it('rebinds from the records when the kept prepared index does not fit, and keeps a new one', async () => {
    const kept = unpackedStore();
    await hostOver(server([websites, rates]), memoryStore(), kept).host.init({ dataUrl: DATA, first: 'ceilingrates' });
    await vi.waitFor(() => expect(kept.preparedWrites).toBe(1));
    const name = unpackedFileName(rates.artifact, 'prepared');
    const good = kept.prepared.get(name)!;
    kept.prepared.set(name, good.slice(0, good.length - 100));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { host } = hostOver(server([websites, rates]), memoryStore(), kept);
    await host.init({ dataUrl: DATA, first: 'ceilingrates' });
    expect(await total(host, RATES_URL)).toBe(40);
    expect(warn).toHaveBeenCalledOnce();
    await vi.waitFor(() => expect(kept.preparedWrites).toBe(2));
    expect(kept.prepared.get(name)).toEqual(good);
    warn.mockRestore();
  });

  it('keeps no prepared index for an import, nor for a database switched away before it was kept', async () => {
    const store = memoryStore();
    await storeImport(store, 'mine', await built('ceilingrates', 7));
    store.active.ceilingrates = 'mine';
    const kept = unpackedStore();
    const { host } = hostOver(server([websites, rates]), store, kept);
    await host.init({ dataUrl: DATA, first: 'ceilingrates' });
    expect(await total(host, RATES_URL)).toBe(7);

    delete store.active.ceilingrates;
    const other = unpackedStore();
    const switched = hostOver(server([websites, rates]), store, other).host;
    await switched.init({ dataUrl: DATA, first: 'ceilingrates' });
    switched.adopt('ceilingrates', await switched.openImport('mine'));
    expect(await total(switched, RATES_URL)).toBe(7);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(kept.preparedWrites).toBe(0);
    expect(other.preparedWrites).toBe(0);
  });

  it("reads the first view's kept copy before the other's, and uses the row counts kept with it", async () => {
    const kept = unpackedStore();
    await hostOver(server([websites, rates]), memoryStore(), kept).host.init({ dataUrl: DATA });
    await vi.waitFor(() => expect(kept.writes).toBe(2));
    kept.reads.length = 0;
    // Counts kept with the copy are the counts of these very bytes: the opening does not count again.
    kept.files.get(unpackedFileName(rates.artifact))!.rows = { ceilingrates: 41 };
    const { host } = hostOver(server([websites, rates]), memoryStore(), kept);
    const status = await host.init({ dataUrl: DATA, first: 'ceilingrates' });
    // The other's copy is read without holding the thread: the first view's answers are not held behind it.
    expect(kept.reads).toEqual(['ceilingrates', 'ceilingrates done', 'websites (background)', 'websites done']);
    expect(status.datasets.find((d) => d.name === 'ceilingrates')!.rows).toEqual({ ceilingrates: 41 });
  });

  it("answers the first view's requests before the next dataset opens", async () => {
    const kept = unpackedStore();
    await hostOver(server([websites, rates]), memoryStore(), kept).host.init({ dataUrl: DATA });
    await vi.waitFor(() => expect(kept.writes).toBe(2));
    const events: string[] = [];
    // Read at once: the other dataset's file is there before the first one is bound.
    const instant = unpackedStore({ readMs: 0, files: kept.files });
    const { host } = hostOver(server([websites, rates]), memoryStore(), instant);
    const loading = host.init({ dataUrl: DATA, first: 'ceilingrates' }, (p) => events.push(`${p.dataset} ${p.phase}`));
    // The answer's way out (encoding it, posting it to the relay's port) takes some more steps after `handle`.
    let answered: Promise<unknown> = host.handle({ method: 'GET', url: RATES_URL });
    for (let step = 0; step < 20; step++) answered = answered.then((x) => x);
    answered = answered.then(() => events.push('answer'));
    await Promise.all([loading, answered]);
    expect(events.indexOf('answer')).toBeGreaterThan(events.indexOf('ceilingrates ready'));
    expect(events.indexOf('answer')).toBeLessThan(events.indexOf('websites open'));
  });

  it('answers the requests that waited for the data one per task: each answer leaves before the next is computed', async () => {
    const { host } = hostOver(server([websites, rates]));
    const loading = host.init({ dataUrl: DATA, first: 'ceilingrates' });
    const order: string[] = [];
    // Each answer's way out (the reply posted in the caller's continuation) runs in microtasks after `handle`.
    const ask = (label: string, url: string) =>
      host.handle({ method: 'GET', url }).then((answer) => {
        expect(answer.status).toBe(200);
        order.push(`${label} answered`);
        queueMicrotask(() => order.push(`${label} posted`));
      });
    await Promise.all([ask('first', RATES_URL), ask('second', `${RATES_URL}&page_size=5`), ask('third', RATES_URL), loading]);
    expect(order).toEqual(['first answered', 'first posted', 'second answered', 'second posted', 'third answered', 'third posted']);
    // An open dataset answers at once, with no extra task.
    let settled = false;
    void host.handle({ method: 'GET', url: RATES_URL }).then(() => (settled = true));
    await Promise.resolve();
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toBe(true);
  });

  it("lets a relayed answer that waited leave ahead of the page's own that waited with it, then opens the next dataset", async () => {
    const kept = unpackedStore();
    await hostOver(server([websites, rates]), memoryStore(), kept).host.init({ dataUrl: DATA });
    await vi.waitFor(() => expect(kept.writes).toBe(2));
    const events: string[] = [];
    const { host } = hostOver(server([websites, rates]), memoryStore(), kept);
    const loading = host.init({ dataUrl: DATA, first: 'ceilingrates' }, (p) => events.push(`${p.dataset} ${p.phase}`));
    // The page's own request asks first, a relayed fetch() after it: both wait for the kept copy to open.
    const own = host.handle({ method: 'GET', url: RATES_URL }).then((a) => events.push(`own ${a.status}`));
    const relayed = host.handle({ method: 'GET', url: RATES_URL }, { whileArriving: 'unavailable' }).then((a) => events.push(`relayed ${a.status}`));
    await Promise.all([own, relayed, loading]);
    expect(events.indexOf('relayed 200')).toBeGreaterThan(events.indexOf('ceilingrates ready'));
    expect(events.indexOf('relayed 200')).toBeLessThan(events.indexOf('own 200'));
    expect(events.indexOf('own 200')).toBeLessThan(events.indexOf('websites open'));
  });

  it('is passed by a reset, which downloads past the HTTP cache and keeps the new copy', async () => {
    const kept = unpackedStore();
    const fake = server([websites, rates]);
    const { host } = hostOver(fake, memoryStore(), kept);
    await host.init({ dataUrl: DATA });
    await vi.waitFor(() => expect(kept.writes).toBe(2));
    fake.requests.length = 0;
    await host.reset();
    expect(datasetFiles(fake)).toHaveLength(2);
    expect(await total(host, RATES_URL)).toBe(40);
    await vi.waitFor(() => expect(kept.writes).toBe(4));
  });
});

describe("a page's fetch() while its dataset opens from this machine", () => {
  /** The data cache of the other contexts, holding the verified files (or holding back their reads until released). */
  function dataCache(files: BuiltFile[], held: Promise<void> = Promise.resolve()): VerifiedFiles {
    return {
      read: async (artifact) => {
        await held;
        const file = files.find((f) => f.artifact.sha256 === artifact.sha256);
        return file ? { gz: file.gz, fileDate: null } : null;
      },
      write: async () => {},
      complete: async () => true,
    };
  }

  it('waits for the copy in the data cache to open, with nothing kept unpacked and no network: no 503', async () => {
    const fake = server([websites, rates]);
    const offline = async (url: string, init: RequestInit) =>
      url.endsWith('.sqlite.gz') ? Promise.reject(new TypeError('Failed to fetch')) : fake.fetch(url, init);
    const host = new DatasetHost({ sqlJs: loadSqlJs, fetch: offline, imports: memoryStore(), files: () => dataCache([websites, rates]), log: () => {} });
    const loading = host.init({ dataUrl: DATA, first: 'ceilingrates' });
    const relayed = await host.handle({ method: 'GET', url: WEBSITES_URL }, { whileArriving: 'unavailable' });
    expect(relayed.status).toBe(200);
    await loading;
  });

  it('is answered 503 with Retry-After when the opening takes longer than the bound, and answers once it opened', async () => {
    const fake = server([websites, rates]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const host = new DatasetHost({
      sqlJs: loadSqlJs,
      fetch: fake.fetch,
      imports: memoryStore(),
      files: () => dataCache([websites, rates], held),
      relayedWaitMs: 50,
      log: () => {},
    });
    const loading = host.init({ dataUrl: DATA, first: 'ceilingrates' });
    const late = await host.handle({ method: 'GET', url: RATES_URL }, { whileArriving: 'unavailable' });
    expect(late.status).toBe(503);
    expect(late.headers['retry-after']).toMatch(/^\d+$/);
    release();
    await loading;
    expect((await host.handle({ method: 'GET', url: RATES_URL }, { whileArriving: 'unavailable' })).status).toBe(200);
    expect(fake.requests.filter((r) => r.url.endsWith('.sqlite.gz'))).toEqual([]);
  });
});

describe('a new version of a dataset whose older file is kept here', () => {
  /** Brotli as the browser's WebAssembly decoder does it: fed, then finished. */
  const brotli: Decoders = {
    br: async () => {
      const pushed: Uint8Array[] = [];
      return { push: (bytes) => void pushed.push(bytes.slice()), finish: () => new Uint8Array(brotliDecompressSync(Buffer.concat(pushed))), free: () => {} };
    },
  };

  /** The kept websites file changed in place: 12 sites gone dark, 2 records dropped. */
  async function nextVersion(): Promise<{ newer: BuiltFile; patch: Uint8Array; entry: PatchFile }> {
    const SQL = await loadSqlJs();
    const db = new SQL.Database(websites.raw);
    db.run('UPDATE websites SET final_url_live = 0 WHERE rowid <= 12');
    db.run('DELETE FROM websites WHERE rowid IN (20, 21)');
    const newer = await builtFrom('websites', db.export(), 28);
    db.close();
    const raw = makePatch(websites.raw, newer.raw);
    const patch = new Uint8Array(brotliCompressSync(raw));
    const entry: PatchFile = {
      from: websites.artifact.sha256,
      file: `websites.from-${websites.artifact.sha256.slice(0, 12)}.patch.br`,
      encoding: 'br',
      bytes: patch.length,
      sha256: await sha256Hex(patch),
      patchBytes: raw.length,
      resultSha256: await sha256Hex(newer.raw),
    };
    newer.artifact.patches = [entry];
    return { newer, patch, entry };
  }

  function keptOlder() {
    const kept = unpackedStore();
    kept.files.set(unpackedFileName(websites.artifact), { raw: websites.raw, fileDate: null });
    return kept;
  }

  function hostWith(fake: ReturnType<typeof server>, kept: UnpackedStore) {
    const logged: string[] = [];
    const progress: LoadProgress[] = [];
    const host = new DatasetHost({
      sqlJs: loadSqlJs,
      fetch: fake.fetch,
      imports: memoryStore(),
      unpacked: kept,
      decoders: brotli,
      log: (text) => logged.push(text),
    });
    return { host, logged, progress, init: () => host.init({ dataUrl: DATA, first: 'websites' }, (p) => progress.push(p)) };
  }

  it('downloads only the patch when it is smaller, checks what it makes, opens it and keeps it in place of the old file', async () => {
    const { newer, patch, entry } = await nextVersion();
    expect(entry.bytes).toBeLessThan(newer.artifact.bytes);
    const fake = server([newer, rates], 'v2');
    fake.bodies.set(`${DATA}${entry.file}`, patch);
    const kept = keptOlder();
    const { init, progress, logged } = hostWith(fake, kept);
    const status = await init();
    const asked = fake.requests.map((r) => r.url.slice(DATA.length));
    expect(asked).toContain(entry.file);
    expect(asked).not.toContain('websites.sqlite.gz');
    expect(status.datasets.find((d) => d.name === 'websites')).toMatchObject({ loaded: true, sha256: newer.artifact.sha256, error: null });
    expect(logged).toEqual([]);
    // The progress said what moved: the patch's bytes, as "only what changed".
    const websitesProgress = progress.flatMap((p) => (p.datasets?.websites ? [p.datasets.websites] : []));
    expect(websitesProgress.some((d) => d.patch && d.phase === 'download' && d.total === entry.bytes)).toBe(true);
    await vi.waitFor(() => expect([...kept.files.keys()]).toContain(unpackedFileName(newer.artifact)));
    expect(kept.files.get(unpackedFileName(newer.artifact))!.raw).toEqual(newer.raw);
    expect(kept.files.has(unpackedFileName(websites.artifact))).toBe(false);
  });

  it('answers from the patched database exactly as from the whole new file', async () => {
    const { newer, patch, entry } = await nextVersion();
    const fake = server([newer, rates], 'v2');
    fake.bodies.set(`${DATA}${entry.file}`, patch);
    const { host, init } = hostWith(fake, keptOlder());
    await init();
    const whole = hostOver(server([newer, rates], 'v2')).host;
    await whole.init({ dataUrl: DATA });
    for (const url of ['/websites?limit=100', '/analysis?final_url_live=false', WEBSITES_URL]) {
      expect((await host.handle({ method: 'GET', url })).body).toBe((await whole.handle({ method: 'GET', url })).body);
    }
    expect(await total(host, WEBSITES_URL)).toBe(28);
  });

  it('downloads the whole file when the patch is damaged, and keeps nothing the patch made', async () => {
    const { newer, patch, entry } = await nextVersion();
    const fake = server([newer, rates], 'v2');
    const damaged = patch.slice();
    damaged[damaged.length >> 1] ^= 0x55;
    fake.bodies.set(`${DATA}${entry.file}`, damaged);
    const kept = keptOlder();
    const { host, init, logged } = hostWith(fake, kept);
    const status = await init();
    const asked = fake.requests.map((r) => r.url.slice(DATA.length));
    expect(asked).toEqual(expect.arrayContaining([entry.file, 'websites.sqlite.gz']));
    expect(logged.some((text) => text.includes('the patch from the kept copy did not apply'))).toBe(true);
    expect(status.datasets.find((d) => d.name === 'websites')).toMatchObject({ loaded: true, sha256: newer.artifact.sha256, error: null });
    expect(await total(host, WEBSITES_URL)).toBe(28);
    await vi.waitFor(() => expect(kept.files.get(unpackedFileName(newer.artifact))?.raw).toEqual(newer.raw));
  });

  it('downloads the whole file when the patch would not be smaller, or none starts from the kept file', async () => {
    const { newer, patch, entry } = await nextVersion();
    for (const patches of [[{ ...entry, bytes: newer.artifact.bytes }], [{ ...entry, from: rates.artifact.sha256 }]]) {
      const fake = server([{ ...newer, artifact: { ...newer.artifact, patches } }, rates], 'v2');
      fake.bodies.set(`${DATA}${entry.file}`, patch);
      const { host, init } = hostWith(fake, keptOlder());
      await init();
      const asked = fake.requests.map((r) => r.url.slice(DATA.length));
      expect(asked).toContain('websites.sqlite.gz');
      expect(asked).not.toContain(entry.file);
      expect(await total(host, WEBSITES_URL)).toBe(28);
    }
  });
});

describe('switching', () => {
  it('adopts an opened import: it answers, the old database is closed, and the page is told to ask again', async () => {
    const fake = server([websites, rates]);
    const store = memoryStore();
    await storeImport(store, 'mine', await built('websites', 5));
    const { host } = hostOver(fake, store);
    const reports: LoadProgress[] = [];
    await host.init({ dataUrl: DATA }, (p) => reports.push(p));
    const old = await host.database('websites');
    host.adopt('websites', await host.openImport('mine'));
    expect(host.activeImport('websites')).toBe('mine');
    expect(await total(host, WEBSITES_URL)).toBe(5);
    expect(() => old!.exec('SELECT 1')).toThrow();
    expect(reports.at(-1)).toMatchObject({ dataset: 'websites', phase: 'ready', replaced: true });
    host.adopt('websites', await host.openBuiltIn('websites'));
    expect(host.activeImport('websites')).toBeNull();
    expect(await total(host, WEBSITES_URL)).toBe(30);
  });

  it('a switch that cannot open its dataset keeps the open one answering', async () => {
    const fake = server([websites, rates]);
    const { host } = hostOver(fake);
    await host.init({ dataUrl: DATA });
    await expect(host.openImport('gone')).rejects.toThrow('the imported dataset gone is no longer stored in this browser');
    fake.bodies.set(`${DATA}websites.sqlite.gz`, null);
    await expect(host.openBuiltIn('websites')).rejects.toThrow('websites.sqlite.gz: HTTP 404');
    expect(await total(host, WEBSITES_URL)).toBe(30);
    expect(host.status().datasets.every((d) => d.loaded && d.error === null)).toBe(true);
  });
});

describe('status', () => {
  it('has one entry per dataset of the registry, with what was opened and how long each step took', async () => {
    const { host } = hostOver(server([websites, rates]));
    expect(host.status()).toEqual({
      ready: false,
      dataUrl: null,
      version: null,
      datasets: ['websites', 'ceilingrates'].map((name) => expect.objectContaining({ name, loaded: false, error: null, importId: null })),
      extras: [],
    });
    await host.init({ dataUrl: DATA });
    const site = host.status().datasets[0];
    expect(site).toEqual({
      name: 'websites',
      loaded: true,
      version: 'v1',
      rows: { websites: 30 },
      bytes: websites.gz.length,
      rawBytes: websites.raw.length,
      sha256: websites.artifact.sha256,
      source: { kind: 'synthetic', label: 'test data', profile: 'test', seed: 30 },
      fileDate: null,
      loadedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      timings: {
        download: expect.any(Number),
        queued: expect.any(Number),
        decompress: expect.any(Number),
        open: expect.any(Number),
        bind: null,
        firstAnswer: null,
      },
      error: null,
      importId: null,
      importName: null,
    });
    // A copy: the caller cannot change the host's.
    site.loaded = false;
    expect(host.status().datasets[0].loaded).toBe(true);
  });

  it("times the first view's bind at open and each dataset's first answer, once per opened database", async () => {
    const { host } = hostOver(server([websites, rates]));
    await host.init({ dataUrl: DATA, first: 'ceilingrates' });
    const timings = (name: string) => host.status().datasets.find((d) => d.name === name)!.timings!;
    expect(timings('ceilingrates')).toMatchObject({ bind: expect.any(Number), firstAnswer: null });
    // The other dataset binds in its first request, which its first answer's time then includes.
    expect(timings('websites')).toMatchObject({ bind: null, firstAnswer: null });
    expect((await host.handle({ method: 'GET', url: '/api/v3/search/ceilingrates/?page=1' })).status).toBe(200);
    const first = timings('ceilingrates').firstAnswer;
    expect(first).toEqual(expect.any(Number));
    await host.handle({ method: 'GET', url: '/api/v3/search/ceilingrates/?keyword=a' });
    expect(timings('ceilingrates').firstAnswer).toBe(first);
    expect(timings('websites').firstAnswer).toBeNull();
    expect((await host.handle({ method: 'GET', url: '/websites?limit=1' })).status).toBe(200);
    expect(timings('websites').firstAnswer).toEqual(expect.any(Number));
  });
});
