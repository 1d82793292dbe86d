/**
 * The little a behaviour test needs of a browser, so one test runs in every browser the project drives: open a
 * page, run a function in it, close it. Everything else (the service worker, storage, the app's status) is asked
 * for from inside the page. Chromium's is playwright-core (harness/browsers/browser.ts), Firefox ESR's puppeteer-core over
 * WebDriver BiDi (harness/browsers/firefox.ts), WebKitGTK's plain W3C WebDriver (harness/browsers/webkit.ts).
 */
import { collectPageErrors, launchBrowser, type LaunchOptions } from './browser.ts';
import { firefoxDriver } from './firefox.ts';
import { webkitDriver } from './webkit.ts';
import type { BrowserDriver, DriverPage } from './driver-page.ts';
import { pageUntil } from './page-until.ts';

export type { BrowserDriver, DriverPage, EvaluatingPage } from './driver-page.ts';
export { pageUntil, untilDatasetsOpen } from './page-until.ts';

export async function chromiumDriver(options: LaunchOptions = {}): Promise<BrowserDriver> {
  const browser = await launchBrowser(options);
  // The tab a persistent context opens with is closed: every page of a test is one it opened.
  const first = browser.page;
  const errors: string[] = [];
  return {
    name: 'chromium',
    async open(url) {
      const page = await browser.context.newPage();
      if (!first.isClosed()) await first.close();
      collectPageErrors(page, errors);
      await page.goto(url);
      return page;
    },
    close: () => browser.close(),
    consoleErrors: () => errors,
  };
}

/** The browsers a driver-based test runs in, by name: another browser joins by adding its driver here. */
export const DRIVERS: Record<string, (options?: LaunchOptions) => Promise<BrowserDriver>> = {
  chromium: chromiumDriver,
  firefox: firefoxDriver,
  webkit: webkitDriver,
};

/** The page is controlled by an activated service worker. */
export function waitForServiceWorker(page: DriverPage): Promise<void> {
  return pageUntil(page, () => navigator.serviceWorker.controller?.state === 'activated', null, 'the service worker controls the page');
}
