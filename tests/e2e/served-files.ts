/**
 * What a first visit's static server sent of the app's files, per path: the count behind "each app file once"
 * (tests/e2e/pwa-app-files-once.test.ts, tests/e2e/firefox-app-files-once.test.ts, docs/decisions/0400).
 */
import { expect } from 'vitest';
import type { EvaluatingPage } from '../../harness/browsers/browser-driver.ts';
import type { ServedRequest } from '../../harness/browsers/pwa-server.ts';

/** Requests a browser makes of its own (the tab's icon, the web app manifest and its icons for installability). */
export const BROWSERS_OWN = /^\/(favicon\.ico|icons\/.*|manifest\.webmanifest)$/;

/** The files every first visit loads in the page and the precache holds: the DB worker, both wasm files, the app. */
export const PAGE_LOADED = [/^\/assets\/db\.worker-.*\.js$/, /^\/assets\/sql-wasm.*\.wasm$/, /^\/assets\/brotli_dec.*\.wasm$/, /^\/assets\/app-.*\.js$/];

/** Path → [answers with a body, body bytes] of the app's files (the datasets have their own rules, 0406). */
export function appFilesServed(log: readonly ServedRequest[]): Record<string, [number, number]> {
  const served: Record<string, [number, number]> = {};
  for (const request of log) {
    if (request.path.startsWith('/data/') || request.status !== 200 || request.method !== 'GET') continue;
    const [count, bytes] = served[request.path] ?? [0, 0];
    served[request.path] = [count + 1, bytes + request.bytes];
  }
  return served;
}

/** The figures a test writes: bytes sent and the files sent more than once. */
export function servedFigures(served: Record<string, [number, number]>): object {
  return {
    appFileBytes: Object.values(served).reduce((n, [, bytes]) => n + bytes, 0),
    sentTwiceOrMore: Object.fromEntries(Object.entries(served).filter(([, [count]]) => count > 1)),
    served,
  };
}

/** Paths sent more than once, the browser's own requests aside. */
export function sentTwice(served: Record<string, [number, number]>): Record<string, [number, number]> {
  return Object.fromEntries(Object.entries(served).filter(([path, [count]]) => count > 1 && !BROWSERS_OWN.test(path)));
}

/**
 * Once the service worker is active (so its install, the precache, is complete): every file the page loaded is in
 * the precache and was sent once, and no app file was sent twice.
 */
export async function expectEachAppFileSentOnce(page: EvaluatingPage, log: readonly ServedRequest[]): Promise<void> {
  const precached = await page.evaluate(async () => {
    const names = (await caches.keys()).filter((name) => name.startsWith('workbox-precache'));
    const requests = await Promise.all(names.map(async (name) => (await caches.open(name)).keys()));
    return requests.flat().map((request) => new URL(request.url).pathname);
  }, null);
  const served = appFilesServed(log);
  for (const file of PAGE_LOADED) {
    const path = Object.keys(served).find((p) => file.test(p));
    expect(path, String(file)).toBeDefined();
    expect(precached, path).toContain(path);
    expect(served[path!][0], path).toBe(1);
  }
  expect(sentTwice(served)).toEqual({});
}
