import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { routed } from '../helpers/routed.ts';
import { describe, expect, it, vi } from 'vitest';
import { LocalEngine, type FileSource } from '../../../adapters/service-worker/local-engine.ts';
import { APIS } from '../../../engine/index.ts';
import { finish } from '../../../engine/http/route.ts';
import type { Manifest } from '../../../dataset/artifact/format.ts';
import { built } from '../helpers/built-file.ts';
import { call, engineOver, generatedDatabase } from '../../../harness/engine.ts';
import { DatasetHost } from '../../../dataset/host/index.ts';
import { DATASETS } from '../../../engine/index.ts';
import { memoryPartialStore } from '../../../dataset/artifact/partial-store.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';

const DATA = 'https://app.example/data/';
const WASM = 'https://app.example/assets/sql-wasm.wasm';
const wasm = readFileSync(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'));
const websitesApi = APIS.find((a) => a.dataset === 'websites')!;

/** The files the service worker would find in its cache: the wasm, one dataset and its manifest. */
async function files(options: { corrupt?: boolean } = {}): Promise<Map<string, Uint8Array | string>> {
  const { gz, artifact } = await built('websites', 50);
  const manifest: Manifest = { version: 'v1', datasets: { websites: artifact } };
  if (options.corrupt) gz[gz.length - 1] ^= 0xff;
  return new Map<string, Uint8Array | string>([
    [WASM, wasm],
    [`${DATA}manifest.json`, JSON.stringify(manifest)],
    [`${DATA}websites.sqlite.gz`, gz],
  ]);
}

function source(map: Map<string, Uint8Array | string>): FileSource {
  return async (url) => {
    const body = map.get(url);
    return body === undefined ? undefined : new Response(body as BodyInit);
  };
}

describe('the service worker engine over cached files', () => {
  it('answers like the engine over the same data', async () => {
    const local = new LocalEngine({ dataUrl: DATA, wasmUrl: WASM, read: source(await files()) });
    const reference = engineOver('websites', await generatedDatabase('websites', 50));
    for (const url of ['/websites?limit=3', '/analysis', '/websites?limit=0']) {
      const answer = await local.answer(routed({ method: 'GET', url }));
      expect(answer).toEqual(call(reference, url).raw);
    }
  });

  it('answers the API own "unavailable" shape when the file does not match its sha256, and logs why', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const local = new LocalEngine({ dataUrl: DATA, wasmUrl: WASM, read: source(await files({ corrupt: true })) });
    const answer = await local.answer(routed({ method: 'GET', url: '/websites' }));
    // As every engine answer, readable cross-origin.
    expect(answer).toEqual(finish({ method: 'GET', url: '/websites' }, websitesApi.errors.unavailable()));
    expect(String(errors.mock.calls[0])).toContain('sha256');
    errors.mockRestore();
  });

  it('checks the manifest too: one naming an unknown dataset is refused, with the reason logged', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const cached = await files();
    const manifest = JSON.parse(cached.get(`${DATA}manifest.json`) as string) as Manifest;
    cached.set(`${DATA}manifest.json`, JSON.stringify({ ...manifest, datasets: { ...manifest.datasets, other: manifest.datasets.websites } }));
    const local = new LocalEngine({ dataUrl: DATA, wasmUrl: WASM, read: source(cached) });
    expect(await local.answer(routed({ method: 'GET', url: '/websites' }))).toEqual(
      finish({ method: 'GET', url: '/websites' }, websitesApi.errors.unavailable()),
    );
    expect(String(errors.mock.calls[0])).toContain('manifest: unknown dataset "other"');
    errors.mockRestore();
  });

  it('answers "unavailable" while the files are missing, then opens them once they are there', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const available = await files();
    const cache = new Map<string, Uint8Array | string>();
    const local = new LocalEngine({ dataUrl: DATA, wasmUrl: WASM, read: source(cache) });
    expect((await local.answer(routed({ method: 'GET', url: '/websites' }))).status).toBe(websitesApi.errors.unavailable().status);
    for (const [k, v] of available) cache.set(k, v);
    expect((await local.answer(routed({ method: 'GET', url: '/websites?limit=2' }))).status).toBe(200);
    errors.mockRestore();
  });
});

describe('the service worker engine beside a DB worker (one lock, one set of kept chunks and files)', () => {
  it('waits for the file a DB worker is bringing and opens the copy it kept: the file crosses once', async () => {
    const available = await files();
    const fileUrl = `${DATA}websites.sqlite.gz`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const requests: string[] = [];
    // The network: the dataset file is held back until the test lets it go.
    const network = async (url: string): Promise<Response> => {
      requests.push(url);
      if (url === fileUrl) await held;
      const body = available.get(url);
      return body === undefined ? new Response('missing', { status: 404 }) : new Response(body as BodyInit);
    };
    const tails = new Map<string, Promise<unknown>>();
    const lock = <T>(name: string, task: () => Promise<T>): Promise<T> => {
      const run = (tails.get(name) ?? Promise.resolve()).catch(() => {}).then(task);
      tails.set(name, run);
      return run;
    };
    const kept = new Map<string, Uint8Array>();
    const shared = {
      read: async (_artifact: unknown, url: string) => (kept.has(url) ? { gz: kept.get(url)!, fileDate: null } : null),
      write: async (_artifact: unknown, url: string, gz: Uint8Array) => void kept.set(url, gz),
      complete: async () => true,
    };
    const places = { partials: memoryPartialStore(), files: () => shared, lock };
    const host = new DatasetHost(
      { sqlJs: loadSqlJs, fetch: network, imports: { activeImports: async () => ({}), readImport: async () => null }, ...places },
      DATASETS.filter((d) => d.name === 'websites'),
    );
    const loading = host.init({ dataUrl: DATA, first: 'websites' });
    await vi.waitFor(() => expect(requests).toContain(fileUrl));
    const local = new LocalEngine({ dataUrl: DATA, wasmUrl: WASM, read: (url) => network(url), ...places });
    const answered = local.answer(routed({ method: 'GET', url: '/websites?limit=2' }));
    release();
    expect((await answered).status).toBe(200);
    await loading;
    expect(requests.filter((url) => url === fileUrl)).toHaveLength(1);
  });
});
