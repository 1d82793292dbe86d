/**
 * The DB worker's import and switch logic (worker/dataset/imports.ts) with IndexedDB replaced by an
 * in-memory stand-in: what is stored and swapped in after a good file, and that a bad file, a cancel, a
 * quota error, another tab's lock or a failed switch leave the open dataset and the stored choice alone.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database, SqlJsStatic } from 'sql.js';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import type { DatasetName } from '../../../engine/http/types.ts';
import type { DatasetStatus } from '../../../adapters/db-worker/db-api.ts';
import type { ImportedDataset } from '../../../adapters/browser/import-store.ts';
import type { ExtraArtifact } from '../../../dataset/artifact/format.ts';
import { pack } from '../../../dataset/artifact/unpack.ts';
import { datasetDefinition } from '../../../engine/dataset-registry.ts';

/** The stand-in store: a test sets `failSave` to make the single write transaction fail. */
const store = vi.hoisted(() => ({
  imports: new Map<string, ImportedDataset>(),
  active: new Map<string, string>(),
  failSave: null as Error | null,
  failDelete: null as Error | null,
}));

vi.mock('../../../adapters/browser/import-store.ts', async (original) => ({
  ...(await original<typeof import('../../../adapters/browser/import-store.ts')>()),
  listImports: async () => [...store.imports.values()],
  activeImports: async () => Object.fromEntries(store.active),
  saveImport: async (meta: ImportedDataset) => {
    if (store.failSave) throw store.failSave;
    store.imports.set(meta.id, meta);
    if (!meta.attachment) store.active.set(meta.dataset, meta.id);
  },
  setActive: async (dataset: DatasetName, id: string | null) => {
    if (id === null) store.active.delete(dataset);
    else store.active.set(dataset, id);
  },
  deleteImport: async (id: string) => {
    if (store.failDelete) throw store.failDelete;
    const meta = store.imports.get(id);
    store.imports.delete(id);
    if (meta && store.active.get(meta.dataset) === id) store.active.delete(meta.dataset);
  },
}));

const { createImports } = await import('../../../adapters/db-worker/imports.ts');

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/import');

interface Opened {
  db: Database;
  status: Partial<DatasetStatus> & { name: DatasetName };
}

let SQL: SqlJsStatic;
beforeAll(async () => {
  SQL = await loadSqlJs();
});

/** A worker with one open database per dataset; `adopted` records every swap. */
function fakeWorker() {
  const open = new Map<DatasetName, Opened>();
  const adopted: { name: DatasetName; importId: string | null }[] = [];
  const closed: Opened[] = [];
  /** The attachments installed, in order (null: removed). */
  const weeks: (Database | null)[] = [];
  const builtIn = (name: DatasetName): Opened => ({ db: new SQL.Database(), status: { name, importId: null } });
  open.set('websites', builtIn('websites'));
  open.set('ceilingrates', builtIn('ceilingrates'));
  let failOpen: Error | null = null;
  const worker = {
    sql: async () => SQL,
    settled: async () => {},
    activeImport: (name: DatasetName) => open.get(name)?.status.importId ?? null,
    openImport: async (id: string): Promise<Opened> => {
      if (failOpen) throw failOpen;
      const meta = store.imports.get(id)!;
      return { db: new SQL.Database(), status: { name: meta.dataset, importId: id } };
    },
    openBuiltIn: async (name: DatasetName): Promise<Opened> => {
      if (failOpen) throw failOpen;
      return builtIn(name);
    },
    adopt: (name: DatasetName, opened: Opened) => {
      open.set(name, opened);
      adopted.push({ name, importId: opened.status.importId ?? null });
    },
    close: (opened: Opened) => closed.push(opened),
    attach: async (_name: DatasetName, db: Database | null) => weeks.push(db),
    opened: (db: Database, status: Partial<DatasetStatus> & { name: DatasetName }): Opened => ({ db, status }),
    builtInSource: () => null,
    downloadExtra: async (id: string) => {
      if (failOpen) throw failOpen;
      const db = new SQL.Database();
      datasetDefinition('websites').createSchema(db);
      const gz = await pack(db.export());
      const artifact: ExtraArtifact = {
        id,
        title: 'Site Scanning snapshot of 2025-02-10 (real, the first week)',
        name: 'websites',
        file: `${id}.sqlite.gz`,
        bytes: gz.length,
        rawBytes: 0,
        sha256: '',
        rows: { websites: 0 },
        source: { kind: 'real', label: 'Real: test', repository: 'r', commit: 'c', date: '2025-02-10', licence: 'CC0-1.0', count: 0 },
      };
      return { artifact, gz, db };
    },
  };
  return { worker, open, adopted, closed, weeks, failOpen: (error: Error | null) => (failOpen = error) };
}

function fixture(name: string): Blob {
  return new Blob([readFileSync(resolve(FIXTURES, name))]);
}

beforeEach(() => {
  store.imports.clear();
  store.active.clear();
  store.failSave = null;
  store.failDelete = null;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('importBuiltIn', () => {
  it("keeps one of the build's extra datasets like an import and makes it active", async () => {
    const fake = fakeWorker();
    const imports = createImports(fake.worker);
    const outcome = await imports.importBuiltIn('websites-2025-02-10', { id: 'run' });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.imported).toMatchObject({
      dataset: 'websites',
      fileName: 'Site Scanning snapshot of 2025-02-10 (real, the first week)',
      formatLabel: 'Built-in dataset (fetched on demand)',
    });
    expect(outcome.report.warnings).toEqual(['Real: test']);
    // Kept like an import, it still says where its records come from.
    expect(outcome.imported.source).toMatchObject({ kind: 'real', label: 'Real: test' });
    expect(fake.open.get('websites')!.status.source).toMatchObject({ kind: 'real' });
    expect(store.active.get('websites')).toBe(outcome.imported.id);
    expect(fake.adopted).toEqual([{ name: 'websites', importId: outcome.imported.id }]);
  });

  it('keeps the weeks attachment without making it active: the open dataset stays, its weeks answer dated paths', async () => {
    const fake = fakeWorker();
    const imports = createImports(fake.worker);
    const before = fake.open.get('websites');
    const outcome = await imports.importBuiltIn('websites-weeks', { id: 'run' });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.imported.attachment).toBe('websites-weeks');
    expect(store.imports.get(outcome.imported.id)).toMatchObject({ attachment: 'websites-weeks' });
    expect(store.active.size).toBe(0);
    expect(fake.adopted).toEqual([]);
    expect(fake.open.get('websites')).toBe(before);
    expect(fake.weeks).toHaveLength(1);
    expect(fake.weeks[0]).not.toBeNull();
    // Deleting it takes its weeks away and leaves the open dataset.
    expect((await imports.remove(outcome.imported.id)).ok).toBe(true);
    expect(fake.weeks).toEqual([fake.weeks[0], null]);
    expect(fake.adopted).toEqual([]);
  });

  it('keeps one weeks copy: a new one replaces one kept before (of an older form, say), the imports stay', async () => {
    const fake = fakeWorker();
    const imports = createImports(fake.worker);
    const first = await imports.importBuiltIn('websites-weeks', { id: 'run' });
    const other = await imports.importBuiltIn('websites-2025-02-10', { id: 'other' });
    const second = await imports.importBuiltIn('websites-weeks', { id: 'again' });
    expect([first.ok, other.ok, second.ok]).toEqual([true, true, true]);
    if (!first.ok || !other.ok || !second.ok) return;
    expect([...store.imports.keys()].sort()).toEqual([other.imported.id, second.imported.id].sort());
    expect(fake.weeks).toHaveLength(2);
  });

  it('leaves the open dataset when the download fails', async () => {
    const fake = fakeWorker();
    const imports = createImports(fake.worker);
    fake.failOpen(new Error('HTTP 404'));
    const outcome = await imports.importBuiltIn('websites-2025-02-10', { id: 'run' });
    expect(outcome).toMatchObject({ ok: false, code: 'fetch' });
    if (outcome.ok) return;
    expect(outcome.message).toContain('HTTP 404');
    expect(fake.adopted).toEqual([]);
    expect(store.active.size).toBe(0);
  });
});

describe('importFile', () => {
  it('stores a good file, marks it active, then swaps it in', async () => {
    const fake = fakeWorker();
    const imports = createImports(fake.worker);
    const phases = new Set<string>();
    const outcome = await imports.importFile(fixture('websites-current.csv'), { id: 'run', name: 'latest.csv' }, (p) => phases.add(p.phase));
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.imported).toMatchObject({ dataset: 'websites', fileName: 'latest.csv', rowsImported: 5, rowsRejected: 3, rows: { websites: 5 } });
    expect(outcome.report.rejected[0]).toMatchObject({ line: 7 });
    expect(store.active.get('websites')).toBe(outcome.imported.id);
    expect(fake.adopted).toEqual([{ name: 'websites', importId: outcome.imported.id }]);
    expect(phases).toContain('saving');
    const db = fake.open.get('websites')!.db;
    expect(db.exec("SELECT target_url FROM websites WHERE target_url_agency_owner = 'Department of Veterans Affairs' ORDER BY 1")[0].values).toEqual([
      ['benefits.va.gov'],
      ['old.va.gov'],
    ]);
  });

  it.each([
    ['truncated-row.csv', 'truncated'],
    ['wrong-format.txt', 'wrong-format'],
    ['no-valid-rows.csv', 'no-valid-rows'],
  ])('%s: %s, nothing stored or swapped', async (file, code) => {
    const fake = fakeWorker();
    const outcome = await createImports(fake.worker).importFile(fixture(file), { id: 'run' });
    expect(outcome).toMatchObject({ ok: false, code });
    expect(store.imports.size).toBe(0);
    expect(fake.adopted).toEqual([]);
  });

  it('a quota error while storing: the import answers in this window, says it was not kept, and stores nothing', async () => {
    store.failSave = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    const fake = fakeWorker();
    const outcome = await createImports(fake.worker).importFile(fixture('ceilingrates-export.csv'), { id: 'run' });
    expect(outcome).toMatchObject({ ok: true, notKept: { code: 'quota' }, imported: { sessionOnly: true } });
    if (!outcome.ok) return;
    expect(outcome.notKept?.message).toMatch(/quota exceeded/);
    expect(outcome.notKept?.message).toMatch(/until the app is reloaded/);
    expect(outcome.report.rowsImported).toBe(6);
    expect(fake.adopted).toEqual([{ name: 'ceilingrates', importId: outcome.imported.id }]);
    expect(store.imports.size).toBe(0);
    expect(store.active.size).toBe(0);
  });

  it('an import the browser refuses to store is listed while it answers, and closing it opens what was kept', async () => {
    store.failSave = new DOMException('Error preparing Blob/File data to be stored in object store', 'UnknownError');
    const fake = fakeWorker();
    const imports = createImports(fake.worker);
    const outcome = await imports.importFile(fixture('ceilingrates-export.csv'), { id: 'run' });
    expect(outcome).toMatchObject({ ok: true, notKept: { code: 'storage' } });
    if (!outcome.ok) return;
    expect(outcome.notKept?.message).toMatch(/Error preparing Blob/);
    const listed = (await imports.choices()).find((c) => c.dataset === 'ceilingrates')!;
    expect(listed.active).toBe(outcome.imported.id);
    expect(listed.imports).toMatchObject([{ id: outcome.imported.id, sessionOnly: true }]);
    expect(await imports.remove(outcome.imported.id)).toMatchObject({ ok: true });
    expect(fake.adopted.at(-1)).toEqual({ name: 'ceilingrates', importId: null });
    expect((await imports.choices()).find((c) => c.dataset === 'ceilingrates')!.imports).toEqual([]);
  });

  it('a cancel while reading stops before anything is stored', async () => {
    const fake = fakeWorker();
    const imports = createImports(fake.worker);
    // Cancelled at the first progress report, as the page's Cancel button does.
    const outcome = await imports.importFile(fixture('websites-current.csv'), { id: 'run' }, () => imports.cancel('run'));
    expect(outcome).toMatchObject({ ok: false, code: 'cancelled' });
    expect(store.imports.size).toBe(0);
    expect(fake.adopted).toEqual([]);
  });

  it('is refused with "busy" while another context holds the import lock', async () => {
    vi.stubGlobal('navigator', {
      locks: { request: async (_name: string, _options: unknown, callback: (lock: null) => unknown) => callback(null) },
    });
    const fake = fakeWorker();
    const outcome = await createImports(fake.worker).importFile(fixture('websites-current.csv'), { id: 'run' });
    expect(outcome).toMatchObject({ ok: false, code: 'busy' });
    if (!outcome.ok) expect(outcome.message).toMatch(/Another tab/);
    expect(store.imports.size).toBe(0);
  });
});

describe('the page that asked', () => {
  it('stores nothing when it was reloaded or closed before the end (its owner lock is gone)', async () => {
    let ownerHeld = true;
    vi.stubGlobal('navigator', {
      locks: {
        request: async (_name: string, _options: unknown, callback: (lock: object) => unknown) => callback({}),
        query: async () => ({ held: ownerHeld ? [{ name: 'offline-gov-api-import-owner:run' }] : [] }),
      },
    });
    const fake = fakeWorker();
    const outcome = await createImports(fake.worker).importFile(fixture('websites-current.csv'), { id: 'run' }, (p) => {
      if (p.phase === 'saving') ownerHeld = false;
    });
    expect(outcome).toMatchObject({ ok: false, code: 'cancelled' });
    if (!outcome.ok) expect(outcome.message).toMatch(/closed or reloaded/);
    expect(store.imports.size).toBe(0);
    expect(fake.adopted).toEqual([]);
  });
});

describe('a call from a page that is already gone', () => {
  it('does not start (its owner lock is not held when the call arrives)', async () => {
    const request = vi.fn();
    vi.stubGlobal('navigator', { locks: { request, query: async () => ({ held: [] }) } });
    const fake = fakeWorker();
    const outcome = await createImports(fake.worker).importFile(fixture('websites-current.csv'), { id: 'run' });
    expect(outcome).toMatchObject({ ok: false, code: 'cancelled' });
    expect(request).not.toHaveBeenCalled();
    expect(store.imports.size).toBe(0);
  });
});

describe('activate and remove', () => {
  async function withImport() {
    const fake = fakeWorker();
    const imports = createImports(fake.worker);
    const outcome = await imports.importFile(fixture('ceilingrates-export.csv'), { id: 'run', name: 'rates.csv' });
    if (!outcome.ok) throw new Error(outcome.message);
    return { fake, imports, id: outcome.imported.id };
  }

  it('switches to the built-in dataset and back, recording the choice', async () => {
    const { fake, imports, id } = await withImport();
    expect(await imports.activate('ceilingrates', null)).toMatchObject({ ok: true });
    expect(store.active.has('ceilingrates')).toBe(false);
    expect(fake.open.get('ceilingrates')!.status.importId).toBeNull();
    expect(await imports.activate('ceilingrates', id)).toMatchObject({ ok: true });
    expect(store.active.get('ceilingrates')).toBe(id);
    const choices = await imports.choices();
    expect(choices.find((c) => c.dataset === 'ceilingrates')).toMatchObject({ active: id, imports: [{ id, fileName: 'rates.csv' }] });
  });

  it('a switch that cannot open its dataset keeps the open one and the stored choice', async () => {
    const { fake, imports, id } = await withImport();
    fake.failOpen(new Error('offline and not cached'));
    const outcome = await imports.activate('ceilingrates', null);
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/previous dataset is still active/);
    expect(store.active.get('ceilingrates')).toBe(id);
    expect(fake.open.get('ceilingrates')!.status.importId).toBe(id);
  });

  it('deleting the active import falls back to the built-in dataset', async () => {
    const { fake, imports, id } = await withImport();
    expect(await imports.remove(id)).toMatchObject({ ok: true });
    expect(store.imports.size).toBe(0);
    expect(store.active.size).toBe(0);
    expect(fake.open.get('ceilingrates')!.status.importId).toBeNull();
  });

  it('a delete that fails keeps the import active and closes the built-in copy it opened', async () => {
    const { fake, imports, id } = await withImport();
    store.failDelete = new Error('disk error');
    expect((await imports.remove(id)).ok).toBe(false);
    expect(fake.open.get('ceilingrates')!.status.importId).toBe(id);
    expect(fake.closed).toHaveLength(1);
    expect(store.active.get('ceilingrates')).toBe(id);
  });
});
