/** Helpers for browser tests of the app: open a view, wait for its data, read what it shows, check it. */
import { readFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { collectPageErrors, launchBrowser, type Browser } from './browser.ts';
import { loadSqlJs } from '../../adapters/node/datasets/sqljs-node.ts';
import { gunzipSync } from 'node:zlib';
import { MANIFEST_FILE, type Manifest } from '../../dataset/artifact/format.ts';
import { createEngine, type Engine } from '../../engine/index.ts';
import { UNPACKED_DIRECTORY } from '../../adapters/browser/unpacked-files.ts';
import { untilDatasetsOpen } from './page-until.ts';

export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../.tmp/screenshots');

/**
 * The engine over the very files the preview server serves, in Node: what the API must answer for a
 * URL, computed without the browser, to check what the page shows against.
 */
export async function nodeEngine(dataDir: string): Promise<{ engine: Engine; manifest: Manifest }> {
  const SQL = await loadSqlJs();
  const manifest = JSON.parse(readFileSync(join(dataDir, MANIFEST_FILE), 'utf8')) as Manifest;
  const engine = createEngine();
  for (const artifact of Object.values(manifest.datasets)) {
    engine.use(artifact.name, new SQL.Database(gunzipSync(readFileSync(join(dataDir, artifact.file)))));
  }
  return { engine, manifest };
}

/** What a view's browser suite works with: the Node engine over the served data, and a page on the app. */
export interface AppSession {
  browser: Browser;
  page: Page;
  engine: Engine;
  manifest: Manifest;
  /** The page's uncaught errors and console errors, as they come. */
  errors: string[];
}

/** The engine over the served data, and a fresh browser on the app at a hash route with every dataset open. */
export async function openAppSession(hash: string): Promise<AppSession> {
  const { engine, manifest } = await nodeEngine(inject('dataDir'));
  const browser = await launchBrowser();
  const errors = collectPageErrors(browser.page);
  try {
    await openApp(browser.page, inject('baseUrl'), hash);
  } catch (error) {
    // The caller never gets the browser to close: it is closed here, with the page it could not open.
    await browser.close();
    throw error;
  }
  return { browser, page: browser.page, engine, manifest, errors };
}

export function engineJson<T>(engine: Engine, url: string): { status: number; body: T } {
  const response = engine.handle({ method: 'GET', url });
  return { status: response.status, body: JSON.parse(response.body) as T };
}

/** Open the app at a hash route and wait until the worker has every dataset open. */
export async function openApp(page: Page, baseUrl: string, hash = '#/rates'): Promise<void> {
  await page.goto(`${baseUrl}/${hash}`);
  await waitForData(page);
}

export function waitForData(page: Page, timeoutMs = 60_000): Promise<void> {
  return untilDatasetsOpen(page, timeoutMs);
}

/** The API URL a view (rates-view, websites-view) has finished drawing. */
export async function renderedUrl(page: Page, view: 'rates-view' | 'websites-view'): Promise<string> {
  return (await page.locator(view).getAttribute('data-rendered-url')) ?? '';
}

/** Wait until a view has drawn exactly this API URL. */
export async function waitForRendered(page: Page, view: 'rates-view' | 'websites-view', url: string): Promise<void> {
  await page.waitForFunction(
    ([tag, want]) => document.querySelector('app-shell')?.shadowRoot?.querySelector(tag)?.getAttribute('data-rendered-url') === want,
    [view, url] as const,
    { timeout: 30_000, polling: 'raf' },
  );
}

/** Wait until a view has drawn some URL other than `previous`, and return it. */
export async function waitForChange(page: Page, view: 'rates-view' | 'websites-view', previous: string): Promise<string> {
  await page.waitForFunction(
    ([tag, old]) => {
      const now = document.querySelector('app-shell')?.shadowRoot?.querySelector(tag)?.getAttribute('data-rendered-url');
      return !!now && now !== old;
    },
    [view, previous] as const,
    { timeout: 30_000, polling: 'raf' },
  );
  return renderedUrl(page, view);
}

/** The hash route, decoded, for comparing with what a test did. */
export async function currentHash(page: Page): Promise<string> {
  return decodeURIComponent(await page.evaluate(() => location.hash));
}

/** A description of the element that has keyboard focus, looking inside shadow roots. */
export async function focused(page: Page): Promise<{ tag: string; id: string; text: string; label: string | null; role: string | null }> {
  return page.evaluate(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      id: el?.id ?? '',
      text: (el?.textContent ?? '').trim().replace(/\s+/g, ' '),
      label: el?.getAttribute('aria-label') ?? null,
      role: el?.getAttribute('role') ?? null,
    };
  });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** Run axe-core on the page; return the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const require = createRequire(import.meta.url);
  const hasAxe = await page.evaluate(() => 'axe' in window);
  // Evaluated over CDP, not added as an inline <script>: the page's CSP refuses inline scripts (docs/decisions/0800).
  if (!hasAxe) await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * Removes the unpacked databases the app kept in the origin-private file system, so that the next
 * opening reads the download again. They are written a moment after a load (the metadata file last, the
 * rates' prepared index later still): waits until every name `kept` lists is there, and for the prepared
 * index when `prepared`; a directory with a file still being written cannot be removed, so that is tried
 * again.
 */
export async function dropKeptDatabases(page: Page, kept: string[], prepared: boolean): Promise<void> {
  await page.evaluate(
    async ({ directory, kept, prepared }) => {
      const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
      const root = await navigator.storage.getDirectory();
      for (let tries = 0; tries < 100; tries++) {
        const names: string[] = [];
        for await (const name of (await root.getDirectoryHandle(directory, { create: true })).keys()) names.push(name);
        const whole = kept.every((name) => names.some((n) => n.startsWith(`${name}.`) && n.endsWith('.json')));
        if (whole && (!prepared || names.some((n) => n.endsWith('.prepared')))) break;
        await pause();
      }
      for (let tries = 0; ; tries++) {
        try {
          await root.removeEntry(directory, { recursive: true });
          return;
        } catch (error) {
          if ((error as DOMException).name !== 'NoModificationAllowedError' || tries === 50) throw error;
          await pause();
        }
      }
    },
    { directory: UNPACKED_DIRECTORY, kept, prepared },
  );
}
