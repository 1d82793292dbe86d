/**
 * The service worker's own engine opens the dataset the user made active in the app (an import) instead
 * of the build's, falls back to the build's when that import cannot be read, and reopens after a reset.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { routed } from '../helpers/routed.ts';
import { describe, expect, it, vi } from 'vitest';
import { LocalEngine, type FileSource, type ImportedDatabase } from '../../../adapters/service-worker/local-engine.ts';
import type { Manifest } from '../../../dataset/artifact/format.ts';
import { built } from '../helpers/built-file.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { importIntoDatabase } from '../../../dataset/import/index.ts';

const DATA = 'https://app.example/data/';
const WASM = 'https://app.example/assets/sql-wasm.wasm';
const wasm = readFileSync(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'));
const VA = `/websites?target_url_agency_owner=${encodeURIComponent('Department of Veterans Affairs')}&limit=100`;

async function buildFiles(): Promise<FileSource> {
  const { gz, artifact } = await built('websites', 300);
  const manifest: Manifest = { version: 'v1', datasets: { websites: artifact } };
  const map = new Map<string, Uint8Array | string>([
    [WASM, wasm],
    [`${DATA}manifest.json`, JSON.stringify(manifest)],
    [`${DATA}websites.sqlite.gz`, gz],
  ]);
  return async (url) => (map.has(url) ? new Response(map.get(url) as BodyInit) : undefined);
}

async function importedBytes(): Promise<Uint8Array> {
  const result = await importIntoDatabase(await loadSqlJs(), readFileSync(new URL('../../fixtures/import/websites-current.csv', import.meta.url)));
  const bytes = result.db.export();
  result.db.close();
  return bytes;
}

async function vaSites(local: LocalEngine): Promise<string[]> {
  const answer = await local.answer(routed({ method: 'GET', url: VA }));
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { items: { target_url: string }[] }).items.map((i) => i.target_url).sort();
}

describe('the service worker engine and imported datasets', () => {
  it('answers from the active import, and from the build after the choice is reset', async () => {
    const bytes = await importedBytes();
    let active: ImportedDatabase | null = { raw: bytes, source: null };
    const local = new LocalEngine({ dataUrl: DATA, wasmUrl: WASM, read: await buildFiles(), imported: async () => active });
    expect(await vaSites(local)).toEqual(['benefits.va.gov', 'old.va.gov']);
    active = null;
    // Without a reset it keeps the open copy; the app's dataset-changed message resets it.
    expect(await vaSites(local)).toEqual(['benefits.va.gov', 'old.va.gov']);
    local.reset();
    expect(await vaSites(local)).not.toEqual(['benefits.va.gov', 'old.va.gov']);
  });

  it("answers a real week kept like an import (the build's 2025-02-10 extra) at its own date, not its last scan's day", async () => {
    const week = { kind: 'real', label: 'the first week', repository: 'r', commit: 'c', date: '2025-02-10', licence: 'CC0-1.0', count: 6 } as const;
    const local = new LocalEngine({
      dataUrl: DATA,
      wasmUrl: WASM,
      read: await buildFiles(),
      imported: async () => ({ raw: await importedBytes(), source: week }),
    });
    const dated = await local.answer(routed({ method: 'GET', url: '/snapshots/2025-02-10/analysis' }));
    expect(dated.status).toBe(200);
    expect(dated.body).toBe((await local.answer(routed({ method: 'GET', url: '/analysis' }))).body);
    expect((await local.answer(routed({ method: 'GET', url: '/snapshots/2025-02-09/analysis' }))).status).toBe(404);
  });

  it('falls back to the build dataset when the import cannot be read, and logs why', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const local = new LocalEngine({
      dataUrl: DATA,
      wasmUrl: WASM,
      read: await buildFiles(),
      imported: async () => {
        throw new Error('the active import is no longer stored');
      },
    });
    const answer = await local.answer(routed({ method: 'GET', url: '/websites?limit=1' }));
    expect(answer.status).toBe(200);
    expect(String(errors.mock.calls[0])).toContain('no longer stored');
    errors.mockRestore();
  });
});
