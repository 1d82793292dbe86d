/**
 * A real weekly update in Chromium (decision 0407): the app deployed with one week's Site Scanning snapshot, then
 * with the next week's and a patch between them. What the new version's install moved, how long it took until
 * "Reload" was offered, and the same without the patch.
 *   npx tsx scripts/measure-patch-update.ts --older DIR --newer DIR
 * DIR: a data directory holding `websites.sqlite.gz`, `websites.sqlite.br` and a manifest.json listing them (one
 * week's build); the rates and the rest are taken from public/data (`npm run data` first).
 */
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser } from '../harness/browsers/browser.ts';
import { startStaticServer } from '../harness/browsers/pwa-server.ts';
import { openAppUntilOfflineReady, pageFetch, readManifestFile, waitUntilKeptUnpacked } from '../harness/browsers/pwa-helpers.ts';
import { waitForData } from '../harness/browsers/app.ts';
import { assemblePublicDir, buildApp } from '../harness/browsers/build-app.ts';
import { addPatches } from '../tools/dataset-patches.ts';
import { MANIFEST_FILE } from '../dataset/artifact/format.ts';

const { values } = parseArgs({ options: { older: { type: 'string' }, newer: { type: 'string' } } });
if (!values.older || !values.newer) throw new Error('usage: npx tsx scripts/measure-patch-update.ts --older DIR --newer DIR');
const ROOT = resolve(import.meta.dirname, '..');
const WORK = resolve(ROOT, '.tmp/measure-patch-update');

/** public/data with one week's websites in place of the shipped ones; the manifest's version follows them. */
function dataWith(week: string, name: string): string {
  const dir = join(WORK, `data-${name}`);
  cpSync(resolve(ROOT, 'public/data'), dir, { recursive: true, filter: (src) => !src.endsWith('.patch.br') });
  const manifest = readManifestFile(dir);
  const websites = readManifestFile(week).datasets.websites!;
  for (const file of [websites.file, websites.transfer!.file]) cpSync(join(week, file), join(dir, file));
  manifest.datasets.websites = { ...websites, source: manifest.datasets.websites!.source, patches: undefined };
  manifest.version = `${name}-${websites.sha256.slice(0, 8)}`;
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
  return dir;
}

async function build(data: string, name: string): Promise<string> {
  const publicDir = join(WORK, `public-${name}`);
  const outDir = join(WORK, `dist-${name}`);
  assemblePublicDir(publicDir, data);
  await buildApp({ outDir, publicDir });
  return outDir;
}

/** First visit of `first`, then the deployment of `second`: the install's bytes and time. */
async function update(
  first: string,
  second: string,
  olderSha: string,
): Promise<{ bytes: Record<string, number>; installMs: number; sites: number; errors: string[] }> {
  const server = await startStaticServer(first);
  const browser = await launchBrowser();
  const logged: string[] = [];
  browser.context.on('console', (m) => void (m.type() === 'error' && logged.push(m.text().slice(0, 300))));
  try {
    await openAppUntilOfflineReady(browser.page, server.origin);
    await waitForData(browser.page);
    await waitUntilKeptUnpacked(browser.page, { name: 'websites', sha256: olderSha }, 120_000);
    // The first visit's last writes (the prepared index, the kept copies) settle before the next version comes.
    await browser.page.waitForTimeout(5_000);
    server.reset();
    server.setRoot(second);
    const started = Date.now();
    await browser.page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await browser.page.getByRole('button', { name: 'Reload' }).waitFor({ timeout: 300_000 });
    const installMs = Date.now() - started;
    const bytes: Record<string, number> = {};
    for (const r of server.log) if (r.path.startsWith('/data/') && r.status < 300) bytes[r.path] = (bytes[r.path] ?? 0) + r.bytes;
    await Promise.all([browser.page.waitForEvent('load'), browser.page.getByRole('button', { name: 'Reload' }).click()]);
    const answer = await pageFetch(browser.page, '/websites?limit=1');
    return { bytes, installMs, sites: (JSON.parse(answer.body) as { meta: { totalItems: number } }).meta.totalItems, errors: logged };
  } finally {
    await browser.close();
    await server.close();
  }
}

rmSync(WORK, { recursive: true, force: true });
const older = dataWith(values.older, 'older');
const plain = dataWith(values.newer, 'newer');
const patched = join(WORK, 'data-patched');
cpSync(plain, patched, { recursive: true });
await addPatches(older, patched);
const [olderApp, plainApp, patchedApp] = [await build(older, 'older'), await build(plain, 'newer'), await build(patched, 'patched')];
const olderSha = readManifestFile(older).datasets.websites!.sha256;
const figures = {
  patch: readManifestFile(patched).datasets.websites!.patches?.[0] ?? null,
  withPatch: await update(olderApp, patchedApp, olderSha),
  wholeFile: await update(olderApp, plainApp, olderSha),
};
console.log(JSON.stringify(figures, null, 2));
