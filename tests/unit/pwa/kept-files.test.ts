/**
 * Where the browser contexts keep the unpacked databases and a cut download's chunks (adapters/browser/kept-files.ts):
 * the place found from what a context offers, and the two stores written once over any place. The places themselves
 * (the origin-private file system, Cache Storage) are exercised by the browser tests, in each engine.
 */
import { describe, expect, it } from 'vitest';
import { findPlace, type KeptFiles, type KeptFilesScope } from '../../../adapters/browser/kept-files.ts';
import { unpackedStore } from '../../../adapters/browser/unpacked-files.ts';
import { partialStore } from '../../../adapters/browser/partial-files.ts';
import { cacheFiles, KEPT_FILES_CACHE } from '../../../adapters/browser/kept-files-cache.ts';
import { acquireArtifact } from '../../../dataset/artifact/acquire.ts';
import { NotWritableHere, unpackedFileName } from '../../../dataset/artifact/unpacked-store.ts';
import { sha256Hex, type DatasetArtifact } from '../../../dataset/artifact/format.ts';

const root = {} as FileSystemDirectoryHandle;
const directory = (getDirectory: () => Promise<FileSystemDirectoryHandle>) => ({ storage: { getDirectory } });
const prototypeWith = (...methods: string[]) => ({ prototype: Object.fromEntries(methods.map((m) => [m, () => {}])) });
const openCaches = { open: async () => ({}) as Cache };
const refusedCaches = { open: () => Promise.reject(new DOMException('', 'SecurityError')) };

describe('the place a context keeps files in', () => {
  it.each<[string, KeptFilesScope, string]>([
    [
      'createWritable: the origin-private file system',
      { navigator: directory(async () => root), FileSystemFileHandle: prototypeWith('createWritable') },
      'opfs',
    ],
    [
      'no createWritable, a sync handle in a dedicated worker (Safari 15.2 to 18, the DB worker)',
      { navigator: directory(async () => root), FileSystemFileHandle: prototypeWith('createSyncAccessHandle'), DedicatedWorkerGlobalScope: function () {} },
      'opfs-sync',
    ],
    [
      'no createWritable, no dedicated worker (Safari 15.2 to 18, the service worker): read only',
      { navigator: directory(async () => root), FileSystemFileHandle: prototypeWith('createSyncAccessHandle') },
      'opfs-read',
    ],
    [
      'a directory refused (WebKit in an automated or private window): Cache Storage',
      { navigator: directory(() => Promise.reject(new DOMException('', 'UnknownError'))), caches: openCaches, indexedDB: {} },
      'cache',
    ],
    ['no Storage API (WebKitGTK as shipped): Cache Storage', { navigator: {}, caches: openCaches, indexedDB: {} }, 'cache'],
    ['no Storage API, Cache Storage refused: IndexedDB', { navigator: {}, caches: refusedCaches, indexedDB: {} }, 'indexeddb'],
    ['no Storage API, no Cache Storage: IndexedDB', { navigator: {}, indexedDB: {} }, 'indexeddb'],
    ['neither', {}, 'none'],
  ])('%s', async (_what, scope, kind) => {
    expect((await findPlace(scope)).kind).toBe(kind);
  });
});

/** Files in memory, as any place keeps them; `readOnly`: writes refused as a context that cannot write is refused. */
function memoryFiles({ readOnly = false } = {}): KeptFiles & { files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  return {
    files,
    kind: async () => 'indexeddb',
    names: async () => [...files.keys()],
    read: async (name, { size = null } = {}) => {
      const bytes = files.get(name);
      return bytes && (size === null || bytes.length === size) ? bytes.slice() : null;
    },
    write: async (name, data) => {
      if (readOnly) throw new NotWritableHere(name);
      files.set(name, typeof data === 'string' ? new TextEncoder().encode(data) : data.slice());
    },
    remove: async (name) => void files.delete(name),
  };
}

const artifact = (sha: string, rawBytes = 4): DatasetArtifact =>
  ({ name: 'ceilingrates', file: 'ceilingrates.sqlite.gz', sha256: sha.repeat(64), bytes: 10, rawBytes, rows: {} }) as unknown as DatasetArtifact;

describe('unpacked databases over kept files', () => {
  it('reads back what was written, with its date, row counts and prepared index', async () => {
    const files = memoryFiles();
    const store = unpackedStore(files);
    await store.write(artifact('a'), { raw: new Uint8Array([1, 2, 3, 4]), fileDate: '2025-01-02T00:00:00.000Z', rows: { rates: 4 } });
    await store.writePrepared(artifact('a'), new Uint8Array([9]));
    expect(await store.read(artifact('a'))).toEqual({
      raw: new Uint8Array([1, 2, 3, 4]),
      fileDate: '2025-01-02T00:00:00.000Z',
      rows: { rates: 4 },
      prepared: new Uint8Array([9]),
    });
  });

  it('trusts no database without its metadata file (written last) nor of another size than the manifest says', async () => {
    const files = memoryFiles();
    const store = unpackedStore(files);
    await store.write(artifact('a'), { raw: new Uint8Array([1, 2, 3, 4]), fileDate: null });
    expect(await store.read(artifact('a', 5))).toBeNull();
    files.files.delete(unpackedFileName(artifact('a'), 'json'));
    expect(await store.read(artifact('a'))).toBeNull();
  });

  it("keeps one artifact per dataset: a new one's write removes the older one's files", async () => {
    const files = memoryFiles();
    const store = unpackedStore(files);
    await store.write(artifact('a'), { raw: new Uint8Array([1, 2, 3, 4]), fileDate: null });
    await store.writePrepared(artifact('a'), new Uint8Array([9]));
    await store.write(artifact('b'), { raw: new Uint8Array([5, 6, 7, 8]), fileDate: null });
    expect([...files.files.keys()].sort()).toEqual([unpackedFileName(artifact('b'), 'json'), unpackedFileName(artifact('b'))].sort());
    expect((await store.readKept('ceilingrates', (sha) => sha === 'b'.repeat(64)))?.database.raw).toEqual(new Uint8Array([5, 6, 7, 8]));
  });

  it('a context that cannot write (the service worker beside a sync-handle DB worker) keeps nothing and reports no failure', async () => {
    const logged: string[] = [];
    const gz = new Uint8Array(await new Response(new Blob([new Uint8Array([1, 2, 3, 4])]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
    const file = { ...artifact('a'), bytes: gz.length, sha256: await sha256Hex(gz) };
    const got = await acquireArtifact({
      fetch: async () => new Response(gz as Uint8Array<ArrayBuffer>),
      dataUrl: 'https://app.example/data/',
      artifact: file,
      unpacked: unpackedStore(memoryFiles({ readOnly: true })),
      events: { log: (text) => logged.push(text) },
    });
    expect(await got.keep({})).toBe(false);
    expect(logged).toEqual([]);
  });
});

describe("a cut download's chunks over kept files", () => {
  it('reads the unbroken run from 0, drops an older artifact of the dataset at a new start, and clears', async () => {
    const files = memoryFiles();
    const store = partialStore(files);
    await store.write(artifact('a'), 0, new Uint8Array([1, 2]));
    await store.write(artifact('a'), 2, new Uint8Array([3]));
    await store.write(artifact('a'), 5, new Uint8Array([9]));
    expect(await store.read(artifact('a'))).toEqual(new Uint8Array([1, 2, 3]));
    await store.write(artifact('b'), 0, new Uint8Array([7]));
    expect(await store.read(artifact('a'))).toEqual(new Uint8Array());
    await store.clear(artifact('b'));
    expect(files.files.size).toBe(0);
  });
});

/** Cache Storage in memory, as a browser keeps it: named caches of responses by URL; `delete` drops one whole. */
function memoryCaches(): Pick<CacheStorage, 'open' | 'delete'> {
  const named = new Map<string, Map<string, Response>>();
  return {
    async open(name) {
      const entries = named.get(name) ?? new Map<string, Response>();
      named.set(name, entries);
      return {
        keys: async () => [...entries.keys()].map((url) => new Request(url)),
        match: async (url: string) => entries.get(url)?.clone(),
        put: async (url: string, response: Response) => void entries.set(url, response),
        delete: async (url: string) => entries.delete(url),
      } as unknown as Cache;
    },
    delete: async (name) => named.delete(name),
  };
}

describe('kept files in Cache Storage (no origin-private file system)', () => {
  it('keeps whole files under names of their own per directory, read at the size asked, removed', async () => {
    const caches = memoryCaches();
    const unpacked = cacheFiles(caches, 'unpacked-datasets');
    const partial = cacheFiles(caches, 'partial-downloads');
    await unpacked.write('a b.sqlite', new Uint8Array([1, 2, 3]));
    await unpacked.write('a b.json', '{"rows":{}}');
    await partial.write('a b.sqlite', new Uint8Array([4]));
    expect((await unpacked.names()).sort()).toEqual(['a b.json', 'a b.sqlite']);
    expect(await unpacked.read('a b.sqlite', { size: 3 })).toEqual(new Uint8Array([1, 2, 3]));
    expect(await unpacked.read('a b.sqlite', { size: 4 })).toBeNull();
    expect(new TextDecoder().decode((await unpacked.read('a b.json'))!)).toBe('{"rows":{}}');
    expect(await partial.read('a b.sqlite')).toEqual(new Uint8Array([4]));
    await unpacked.remove('a b.sqlite');
    expect(await unpacked.read('a b.sqlite')).toBeNull();
    expect(await unpacked.names()).toEqual(['a b.json']);
  });

  it('writes into the cache again once the browser deleted it (nothing written where no one reads)', async () => {
    const caches = memoryCaches();
    const files = cacheFiles(caches, 'unpacked-datasets');
    await files.write('a.sqlite', new Uint8Array([1]));
    await caches.delete(KEPT_FILES_CACHE);
    expect(await files.names()).toEqual([]);
    await files.write('a.sqlite', new Uint8Array([2]));
    expect(await cacheFiles(caches, 'unpacked-datasets').read('a.sqlite')).toEqual(new Uint8Array([2]));
  });
});
