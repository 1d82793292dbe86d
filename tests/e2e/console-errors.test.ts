/**
 * Every view of the app, in each browser the project drives, with no error in the console: the page's own errors
 * are recorded in the page (tests/e2e/console-recorder.ts, the only way to hear WebKit's), and Chromium's and
 * Firefox's as their drivers report them (workers' and failed loads' too). The rates view is opened three times
 * and drawn at a phone's width: WebKit reported "ResizeObserver loop completed with undelivered notifications" on
 * every opening (ui/components/common/box-width.ts).
 */
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DRIVERS, pageUntil, type BrowserDriver, type DriverPage } from '../../harness/browsers/browser-driver.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { recordedErrors, startConsoleRecorder, type ConsoleRecorder } from './console-recorder.ts';

/** Each view, and what shows it has drawn (in the app shell's shadow root). */
const VIEWS: [hash: string, drawn: string][] = [
  ['#/rates', 'rates-view[data-rendered-url]'],
  ['#/websites', 'websites-view[data-rendered-url]'],
  ['#/rates', 'rates-view[data-rendered-url]'],
  ['#/weeks', 'weeks-view'],
  ['#/datasets', 'dataset-panel'],
  ['#/console', 'api-console'],
  ['#/rates?keyword=engineer', 'rates-view[data-rendered-url*="engineer"]'],
];

let server: StaticServer;
let recorder: ConsoleRecorder;

beforeAll(async () => {
  server = await startStaticServer(dirname(inject('dataDir')));
  recorder = await startConsoleRecorder(server.origin);
});

afterAll(async () => {
  await recorder?.close();
  await server?.close();
});

/** Show a view and wait until it has drawn, and two frames more (a resize is delivered in the frame after). */
async function show(page: DriverPage, hash: string, drawn: string): Promise<void> {
  await page.evaluate((h) => void (location.hash = h), hash);
  await pageUntil(
    page,
    async (selector) => {
      if (!document.querySelector('app-shell')?.shadowRoot?.querySelector(selector)) return false;
      for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
      return true;
    },
    drawn,
    `${hash} is drawn`,
  );
}

describe.each(Object.entries(DRIVERS))('the console in %s', (_name, launch) => {
  let driver: BrowserDriver;

  afterAll(async () => {
    await driver?.close();
  });

  it('stays free of errors through every view, the rates view opened three times and at a phone’s width', async () => {
    driver = await launch();
    const page = await driver.open(`${recorder.origin}/#/rates`);
    for (const [hash, drawn] of VIEWS) await show(page, hash, drawn);
    // A phone's width: the charts take their narrow drawing.
    await page.evaluate(() => {
      const shell = document.querySelector('app-shell') as HTMLElement;
      shell.style.maxWidth = '390px';
      shell.style.display = 'block';
    }, null);
    await show(page, '#/rates?keyword=analyst', 'rates-view[data-rendered-url*="analyst"]');
    expect(await recordedErrors(page)).toEqual([]);
    expect(driver.consoleErrors?.() ?? []).toEqual([]);
  });
});
