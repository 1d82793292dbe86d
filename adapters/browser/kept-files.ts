/**
 * Named files kept on this machine for every context of the app (the DB worker and the service worker): a
 * directory of the origin-private file system where the browser has one, else Cache Storage, else IndexedDB.
 * Which one is found out once per context, by what the browser offers (docs/decisions/1200):
 *
 * - `opfs`: the origin-private file system, written with `createWritable` (a swap file, replaced on close);
 * - `opfs-sync`: the same files, written with a synchronous access handle where `createWritable` is missing
 *   (Safari 15.2 to 18) and the context is a dedicated worker (the DB worker);
 * - `opfs-read`: the same files, read but not written (a service worker there: the DB worker writes them);
 * - `cache`: no origin-private file system (WebKitGTK ships it off; WebKit refuses it in a private or automated
 *   window): Cache Storage holds the same files, an entry each (kept-files-cache.ts). Not IndexedDB first: WebKit
 *   answers a worker's IndexedDB through its page's main thread, busy drawing the app while the copies are read;
 * - `indexeddb`: Cache Storage refused too (a private window that refuses it): IndexedDB holds them, in 4 MiB records;
 * - `none`: neither (nothing is kept: every opening decodes the download again).
 *
 * Every context of an origin finds the same place (the file system is there for all of them or for none), so what
 * one keeps another reads. The unpacked databases (unpacked-files.ts) and the chunks of cut downloads
 * (partial-files.ts) are kept this way.
 */
import { yieldingConnection } from './idb-connection.ts';
import { NotWritableHere } from '../../dataset/artifact/unpacked-store.ts';
import { joinBytes } from '../../dataset/artifact/join-bytes.ts';
import { cacheFiles, KEPT_FILES_CACHE } from './kept-files-cache.ts';

export type KeptFilesKind = 'opfs' | 'opfs-sync' | 'opfs-read' | 'cache' | 'indexeddb' | 'none';

export interface ReadOptions {
  /** The length the file must have; null when it has another (no read then). */
  size?: number | null;
  /** Read without holding this thread (a Blob read): the answers of a dataset already open are not held behind it. */
  background?: boolean;
}

export interface KeptFiles {
  /** Where the files are kept in this context. */
  kind(): Promise<KeptFilesKind>;
  names(): Promise<string[]>;
  /** A whole file's bytes, or null when it is not there (or has another size than asked). */
  read(name: string, options?: ReadOptions): Promise<Uint8Array | null>;
  /** Keep a whole file under `name` (a reader never sees half of it, or, written with a sync handle, sees a shorter one). */
  write(name: string, data: Uint8Array | string): Promise<void>;
  remove(name: string): Promise<void>;
}

/** The IndexedDB database that stands in for the origin-private file system: one object store per directory. */
export const KEPT_FILES_DB = 'offline-gov-api-kept-files';
/** The directories kept (each an object store of KEPT_FILES_DB too). */
export const KEPT_DIRECTORIES = ['unpacked-datasets', 'partial-downloads'] as const;
export type KeptDirectory = (typeof KEPT_DIRECTORIES)[number];

export interface Place {
  kind: KeptFilesKind;
  root: FileSystemDirectoryHandle | null;
  /** The Cache Storage the files are kept in (kind `cache`). */
  caches?: Pick<CacheStorage, 'open'>;
}

/** What a context offers, as the global scope shows it. */
export interface KeptFilesScope {
  navigator?: { storage?: Pick<StorageManager, 'getDirectory'> };
  caches?: Pick<CacheStorage, 'open'>;
  indexedDB?: unknown;
  FileSystemFileHandle?: { prototype: object };
  DedicatedWorkerGlobalScope?: unknown;
}

/**
 * Where this scope keeps files: the origin-private file system (and how it writes there), else Cache Storage, else
 * IndexedDB, else nowhere.
 */
export async function findPlace(scope: KeptFilesScope): Promise<Place> {
  const storage = scope.navigator?.storage;
  if (storage?.getDirectory) {
    try {
      const root = await storage.getDirectory();
      const handle = scope.FileSystemFileHandle?.prototype;
      if (handle && 'createWritable' in handle) return { kind: 'opfs', root };
      if (handle && 'createSyncAccessHandle' in handle && typeof scope.DedicatedWorkerGlobalScope === 'function') return { kind: 'opfs-sync', root };
      return { kind: 'opfs-read', root };
    } catch {
      // Present but refused (a private or automated window): Cache Storage or IndexedDB stands in.
    }
  }
  if (scope.caches) {
    try {
      await scope.caches.open(KEPT_FILES_CACHE);
      return { kind: 'cache', root: null, caches: scope.caches };
    } catch {
      // Refused (a private window): IndexedDB stands in.
    }
  }
  return { kind: scope.indexedDB ? 'indexeddb' : 'none', root: null };
}

let found: Promise<Place> | null = null;

/** This context's place, found out once (asking for the directory is a round trip to the browser). */
export function keptFilesPlace(): Promise<Place> {
  found ??= findPlace(globalThis as KeptFilesScope);
  return found;
}

/**
 * The files of one directory, kept wherever this context keeps them. The place is found, and its directory or
 * database opened, at once: a worker makes its stores as it starts, and its first read (a reopening's kept copy)
 * then finds them open instead of waiting for those round trips after the manifest.
 */
export function keptFiles(directory: KeptDirectory, place: () => Promise<Place> = () => keptFilesPlace()): KeptFiles {
  let backend: Promise<KeptFiles> | null = null;
  const chosen = () => {
    backend ??= place().then(({ kind, root, caches }) =>
      root
        ? opfsFiles(kind, root, directory)
        : caches
          ? behindForeground(cacheFiles(caches, directory))
          : kind === 'indexeddb'
            ? behindForeground(indexedDbFiles(directory))
            : noFiles(),
    );
    return backend;
  };
  chosen().catch(() => (backend = null));
  return {
    kind: () => chosen().then((files) => files.kind()),
    names: () => chosen().then((files) => files.names()),
    read: (name, options) => chosen().then((files) => files.read(name, options)),
    write: (name, data) => chosen().then((files) => files.write(name, data)),
    remove: (name) => chosen().then((files) => files.remove(name)),
  };
}

/** The foreground reads under way in this context (across directories): a background read starts after them. */
const foregroundReads = new Set<Promise<unknown>>();

/**
 * A place outside the file system, whose reads come through the browser's storage process (and in WebKit through
 * the page's main thread) in turns: a background read waits for the foreground ones under way, or the first view's
 * copy would arrive later by the other's size.
 */
function behindForeground(files: KeptFiles): KeptFiles {
  return {
    ...files,
    async read(file, options = {}) {
      if (options.background) {
        await Promise.allSettled(foregroundReads);
        return files.read(file, options);
      }
      const reading = files.read(file, options);
      foregroundReads.add(reading);
      return reading.finally(() => foregroundReads.delete(reading));
    },
  };
}

function noFiles(): KeptFiles {
  return {
    kind: async () => 'none',
    names: async () => [],
    read: async () => null,
    write: async () => {
      throw new Error('this browser has no storage for kept files');
    },
    remove: async () => {},
  };
}

function opfsFiles(kind: KeptFilesKind, root: FileSystemDirectoryHandle, name: KeptDirectory): KeptFiles {
  // Asked for once, and again only after a failure.
  let opened: Promise<FileSystemDirectoryHandle> | null = null;
  const directory = () => {
    if (!opened) {
      opened = root.getDirectoryHandle(name, { create: true });
      opened.catch(() => (opened = null));
    }
    return opened;
  };
  void directory().catch(() => {});
  return {
    kind: async () => kind,
    async names() {
      const names: string[] = [];
      for await (const file of (await directory()).keys()) names.push(file);
      return names;
    },
    async read(file, options = {}) {
      const handle = await (await directory()).getFileHandle(file).catch(() => null);
      return handle ? readWhole(handle, options) : null;
    },
    async write(file, data) {
      if (kind === 'opfs-read') throw new NotWritableHere(`this context cannot write origin-private files (${file})`);
      const handle = await (await directory()).getFileHandle(file, { create: true });
      const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
      if (kind === 'opfs-sync') return writeWithSyncHandle(handle, bytes);
      const writable = await handle.createWritable();
      await writable.write(bytes as Uint8Array<ArrayBuffer>);
      await writable.close();
    },
    async remove(file) {
      await (await directory()).removeEntry(file).catch(() => {});
    },
  };
}

/**
 * A whole file's bytes: through a synchronous access handle where there is one (a dedicated worker; about half the
 * time of a Blob read for a large file), else as a Blob. An access handle is exclusive: when another context holds
 * the file (a write under way), the Blob read is tried. Safari before 16.4 answers the handle's methods with promises:
 * each is awaited.
 */
async function readWhole(handle: FileSystemFileHandle, { background = false, size = null }: ReadOptions): Promise<Uint8Array | null> {
  if (!background && 'createSyncAccessHandle' in handle) {
    try {
      const access = await handle.createSyncAccessHandle();
      try {
        const length = await access.getSize();
        if (size !== null && length !== size) return null;
        const bytes = new Uint8Array(length);
        if ((await access.read(bytes, { at: 0 })) === bytes.byteLength) return bytes;
      } finally {
        await access.close();
      }
    } catch {
      // Fall through to the Blob read.
    }
  }
  const file = await handle.getFile();
  if (size !== null && file.size !== size) return null;
  return new Uint8Array(await file.arrayBuffer());
}

/** Written in place (no swap file): a context that dies mid-write leaves a shorter file, which no reader trusts. */
async function writeWithSyncHandle(handle: FileSystemFileHandle, bytes: Uint8Array): Promise<void> {
  const access = await handle.createSyncAccessHandle();
  try {
    await access.truncate(0);
    let at = 0;
    while (at < bytes.length) at += await access.write(bytes.subarray(at), { at });
    await access.flush();
  } finally {
    await access.close();
  }
}

const keptFilesDb = yieldingConnection(KEPT_FILES_DB, 1, (db) => {
  for (const directory of KEPT_DIRECTORIES) db.createObjectStore(directory);
});

/**
 * A file is kept in records of at most this many bytes, keyed [name, index]: each record read back is copied into
 * the reading thread by itself, so a background read (a later dataset's kept copy, 69 MB for the websites) lets the
 * first view's answers through between its records instead of holding them for the whole copy (WebKit's reopening:
 * its first answer waited 90 to 250 ms behind one record).
 */
export const KEPT_RECORD_BYTES = 4 * 1024 * 1024;

/** Every record of one file. */
function recordsOf(file: string): IDBKeyRange {
  return IDBKeyRange.bound([file, 0], [file, Infinity]);
}

/** One file as records of bytes (text is kept as its UTF-8 bytes), written and read in one transaction each. */
function indexedDbFiles(directory: KeptDirectory): KeptFiles {
  void keptFilesDb().catch(() => {});
  const readRecords = async (file: string, size: number | null): Promise<Uint8Array | null> => {
    const store = (await keptFilesDb()).transaction(directory).store;
    const keys = await store.getAllKeys(recordsOf(file));
    if (keys.length === 0) return null;
    // Asked for at once: each answer arrives as a task of its own.
    const records: unknown[] = await Promise.all(keys.map((key) => store.get(key)));
    if (!records.every((record) => record instanceof Uint8Array)) return null;
    const parts = records as Uint8Array[];
    const length = parts.reduce((n, part) => n + part.length, 0);
    if (size !== null && length !== size) return null;
    if (parts.length === 1) return parts[0];
    return joinBytes(parts, length);
  };
  return {
    kind: async () => 'indexeddb',
    names: async () => [...new Set((await (await keptFilesDb()).getAllKeys(directory)).map((key) => String((key as [string, number])[0])))],
    read: (file, { size = null } = {}) => readRecords(file, size),
    async write(file, data) {
      const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
      const transaction = (await keptFilesDb()).transaction(directory, 'readwrite');
      const writes: Promise<unknown>[] = [transaction.store.delete(recordsOf(file))];
      // Each record a copy of its own: a view would be stored with its whole buffer.
      for (let at = 0, index = 0; index === 0 || at < bytes.length; at += KEPT_RECORD_BYTES, index++) {
        writes.push(transaction.store.put(bytes.slice(at, at + KEPT_RECORD_BYTES), [file, index]));
      }
      await Promise.all([...writes, transaction.done]);
    },
    async remove(file) {
      await (await keptFilesDb()).delete(directory, recordsOf(file));
    },
  };
}
