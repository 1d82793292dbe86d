/**
 * A new version whose websites changed, deployed with a patch from the version the browser keeps: the new
 * service worker's install downloads the patch alone (not the whole file, nor the unchanged rates), checks what it
 * makes, and the new version answers with the new records, offline.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { assemblePublicDir, buildApp } from '../../harness/browsers/build-app.ts';
import { launchBrowser, type Browser } from '../../harness/browsers/browser.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { openAppUntilOfflineReady, pageFetch, readManifestFile, waitUntilControlled, waitUntilKeptUnpacked } from '../../harness/browsers/pwa-helpers.ts';
import { waitForData } from '../../harness/browsers/app.ts';
import { loadSqlJs } from '../../adapters/node/datasets/sqljs-node.ts';
import { brotliDatabase, gzipDatabase } from '../../adapters/node/datasets/dataset-writer.ts';
import { addPatches } from '../../tools/dataset-patches.ts';
import { MANIFEST_FILE, sha256Hex, type DatasetArtifact } from '../../dataset/artifact/format.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const WORK = resolve(ROOT, '.tmp/e2e-pwa-update-patch');

let server: StaticServer;
let browser: Browser;
let next: { outDir: string; websites: DatasetArtifact; sites: number };

/** The same build with three sites gone and every tenth one no longer live, and a patch from the served build. */
async function buildPatchedVersion(dataDir: string): Promise<typeof next> {
  rmSync(WORK, { recursive: true, force: true });
  const nextData = resolve(WORK, 'data');
  cpSync(dataDir, nextData, { recursive: true });
  const manifest = readManifestFile(nextData);
  const older = manifest.datasets.websites!;
  const SQL = await loadSqlJs();
  const db = new SQL.Database(gunzipSync(readFileSync(join(nextData, older.file))));
  db.run('DELETE FROM websites WHERE rowid IN (SELECT rowid FROM websites ORDER BY rowid LIMIT 3)');
  db.run('UPDATE websites SET final_url_live = 0 WHERE rowid % 10 = 0');
  const sites = db.exec('SELECT count(*) FROM websites')[0].values[0][0] as number;
  const raw = db.export();
  db.close();
  const [gz, br] = [gzipDatabase(raw), brotliDatabase(raw)];
  writeFileSync(join(nextData, older.file), gz);
  writeFileSync(join(nextData, older.transfer!.file), br);
  manifest.datasets.websites = {
    ...older,
    bytes: gz.length,
    rawBytes: raw.length,
    sha256: await sha256Hex(gz),
    rows: { websites: sites },
    transfer: { ...older.transfer!, bytes: br.length, sha256: await sha256Hex(br) },
  };
  manifest.version = `patched-${manifest.datasets.websites.sha256.slice(0, 6)}`;
  writeFileSync(join(nextData, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
  await addPatches(dataDir, nextData);
  const publicDir = resolve(WORK, 'public');
  const outDir = resolve(WORK, 'dist');
  assemblePublicDir(publicDir, nextData);
  await buildApp({ outDir, publicDir });
  return { outDir, websites: readManifestFile(nextData).datasets.websites!, sites };
}

beforeAll(async () => {
  const dataDir = inject('dataDir');
  next = await buildPatchedVersion(dataDir);
  server = await startStaticServer(dirname(dataDir));
  browser = await launchBrowser();
  await openAppUntilOfflineReady(browser.page, server.origin);
  await waitForData(browser.page);
  // The first version's websites are kept unpacked (the file a patch applies to).
  const older = readManifestFile(dataDir).datasets.websites!;
  await waitUntilKeptUnpacked(browser.page, older);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('an update whose websites changed', () => {
  it('downloads only their patch, and the new version answers with the new records, offline', async () => {
    const page = browser.page;
    const patch = next.websites.patches?.[0];
    expect(patch, 'the build made a patch smaller than the whole file').toBeDefined();
    expect(patch!.bytes).toBeLessThan(next.websites.transfer!.bytes);
    server.reset();
    server.setRoot(next.outDir);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await page.getByRole('button', { name: 'Reload' }).waitFor({ timeout: 60_000 });
    // The install moved the patch alone: the changed websites' whole file and the unchanged rates stayed put.
    const data = server.log.filter((r) => r.path.startsWith('/data/') && r.status < 300 && !r.path.endsWith('.json'));
    expect(data.map((r) => [r.path, r.bytes])).toEqual([[`/data/${patch!.file}`, patch!.bytes]]);

    server.setOffline(true);
    await browser.context.setOffline(true);
    await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), page.getByRole('button', { name: 'Reload' }).click()]);
    await waitUntilControlled(page);
    await waitForData(page);
    const answer = await pageFetch(page, '/websites?limit=1');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).meta.totalItems).toBe(next.sites);
    const opened = await page.evaluate(async () => {
      const shell = document.querySelector('app-shell') as unknown as { db: { status(): Promise<{ datasets: { name: string; sha256: string | null }[] }> } };
      return (await shell.db.status()).datasets.find((d) => d.name === 'websites')?.sha256;
    });
    expect(opened).toBe(next.websites.sha256);
  });
});
