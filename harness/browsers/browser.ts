/**
 * Debian's Chromium driven by playwright-core, for every browser test. Each launch gets a fresh profile
 * directory (no service worker, cache or storage carried over) that is deleted on close. Each test file
 * launches its own; a browser a file left open (a setup that failed halfway) is closed when that file ends
 * (tests/e2e/setup-file.ts), so the next file never shares its page, profile or CPU.
 * Run browser suites one at a time on a small machine (they share one Chromium's worth of CPU).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Download, type Page } from 'playwright-core';
import { leftOpen } from './left-open.ts';

export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Recent Chromium builds its omnibox popups as web pages for every new window (a page opened after the last
  // one closed): a few hundred module loads and 0.4-1.5 s of a core on a small machine, in the middle of
  // whatever the test or measurement does. Chromium 156 has three of them; naming only the first left the
  // others loading (busy time of a new window: 660-1,860 ms with them, 340-440 ms without).
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup',
];

export function chromePath(): string {
  return process.env.CHROME_PATH || '/usr/bin/chromium';
}

export interface LaunchOptions {
  viewport?: { width: number; height: number };
  /** Extra Chromium flags. */
  args?: string[];
  /** Playwright context options such as `offline` or `serviceWorkers`. */
  context?: Parameters<typeof chromium.launchPersistentContext>[1];
}

export interface Browser {
  context: BrowserContext;
  /** The first page (a persistent context opens with one). */
  page: Page;
  userDataDir: string;
  close(): Promise<void>;
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'e2e-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromePath(),
    headless: true,
    args: [...CHROME_FLAGS, ...(options.args ?? [])],
    viewport: options.viewport ?? { width: 1280, height: 800 },
    ...options.context,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const browser: Browser = {
    context,
    page,
    userDataDir,
    async close() {
      leftOpen.delete(browser);
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
  leftOpen.add(browser);
  return browser;
}

/** Fail the test on errors the page logs or throws, instead of letting them pass unseen (into `errors`, when given). */
export function collectPageErrors(page: Page, errors: string[] = []): string[] {
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  return errors;
}

/** A download's bytes, read through playwright (a file path exists only when the browser runs on this machine's side). */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A download as UTF-8 text. */
export async function downloadedText(download: Download): Promise<string> {
  return (await downloadedBytes(download)).toString('utf8');
}
