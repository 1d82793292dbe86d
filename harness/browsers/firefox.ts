/**
 * Debian's Firefox ESR driven by puppeteer-core over WebDriver BiDi, for the browser tests that also run in
 * Firefox (tests/e2e/firefox-*.test.ts). A launch gets a fresh profile directory unless it is handed one (to
 * reopen the same browser: its service worker, caches and origin-private files kept), deleted by `close`.
 * Like Chromium's (harness/browsers/browser.ts), one browser at a time on a small machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { DriverPage } from './driver-page.ts';
import { leftOpen } from './left-open.ts';

export function firefoxPath(): string {
  return process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
}

export interface FirefoxBrowser {
  browser: Browser;
  /** The first tab. */
  page: Page;
  userDataDir: string;
  /** Ends the browser, keeping its profile, so that a launch with `userDataDir` reopens it. */
  quit(): Promise<void>;
  /** Ends the browser and deletes its profile. */
  close(): Promise<void>;
}

/**
 * No preference of our own: http://localhost is a secure context, so the app's service worker registers with
 * Firefox's defaults (`dom.serviceWorkers.enabled` is on; `dom.serviceWorkers.testing.enabled` would only lift the
 * secure-context rule for other hosts, which these tests never use). puppeteer's profile already turns off
 * updates, telemetry and safe browsing, the browser's own network work.
 */
export async function launchFirefox(options: { userDataDir?: string } = {}): Promise<FirefoxBrowser> {
  const userDataDir = options.userDataDir ?? mkdtempSync(join(tmpdir(), 'e2e-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath: firefoxPath(),
    headless: true,
    userDataDir,
    defaultViewport: { width: 1280, height: 800 },
  });
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  const firefox: FirefoxBrowser = {
    browser,
    page,
    userDataDir,
    async quit() {
      leftOpen.delete(firefox);
      await browser.close();
    },
    async close() {
      await firefox.quit();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
  leftOpen.add(firefox);
  return firefox;
}

/** A puppeteer page as the browser-driver interface's page, for the helpers written once for both browsers. */
export function firefoxPage(page: Page): DriverPage {
  return {
    // page.evaluate's overloads cannot check an argument of a generic type.
    evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg: A) => (page.evaluate.bind(page) as (f: typeof fn, a: A) => Promise<R>)(fn, arg),
    reload: async () => void (await page.reload()),
    close: () => page.close(),
  };
}

/**
 * Firefox ESR behind the browser-driver interface (`BrowserDriver`, harness/browsers/browser-driver.ts, which lists it in
 * DRIVERS and so checks its shape), so a driver-based test runs here too.
 */
export async function firefoxDriver() {
  const firefox = await launchFirefox();
  const errors: string[] = [];
  // The tab the browser opens with stays, blank: Firefox does not close the last tab of its last window, so a
  // test's tab, closed when it was the only one, would live on (its DB worker still answering the service worker).
  return {
    name: 'firefox' as const,
    async open(url: string) {
      const page = await firefox.browser.newPage();
      page.on('pageerror', (error) => errors.push(`pageerror: ${error instanceof Error ? error.message : String(error)}`));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
      });
      await page.goto(url);
      return firefoxPage(page);
    },
    close: () => firefox.close(),
    consoleErrors: () => errors,
  };
}
