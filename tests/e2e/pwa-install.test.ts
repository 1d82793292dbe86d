/** The web app manifest passes Chromium's installability checks, with real icons of the declared sizes. */
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type Browser } from '../../harness/browsers/browser.ts';
import { startStaticServer, type StaticServer } from '../../harness/browsers/pwa-server.ts';
import { openAppUntilOfflineReady } from '../../harness/browsers/pwa-helpers.ts';

let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  server = await startStaticServer(dirname(inject('dataDir')));
  browser = await launchBrowser();
  await openAppUntilOfflineReady(browser.page, server.origin);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

describe('installable', () => {
  it('has no installability errors and a manifest Chromium parses without errors', async () => {
    const cdp = await browser.context.newCDPSession(browser.page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifest.url).toBe(`${server.origin}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
  });

  it('declares name, start_url, standalone display, theme colour and 192/512 icons including maskable', async () => {
    const manifest = await browser.page.evaluate(() => fetch('/manifest.webmanifest').then((r) => r.json()));
    expect(manifest).toMatchObject({ name: expect.any(String), short_name: expect.any(String), start_url: './', display: 'standalone' });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    const icons = manifest.icons as ManifestIcon[];
    for (const size of ['192x192', '512x512']) {
      expect(icons.some((i) => i.sizes === size && (i.purpose ?? 'any').includes('any'))).toBe(true);
      expect(icons.some((i) => i.sizes === size && i.purpose?.includes('maskable'))).toBe(true);
    }
    for (const icon of icons) {
      // Width and height from the PNG header (IHDR), which must match the declared size.
      const [width, height] = await browser.page.evaluate(async (src) => {
        const bytes = new DataView(await (await fetch(src)).arrayBuffer());
        return [bytes.getUint32(16), bytes.getUint32(20)];
      }, icon.src);
      expect(`${width}x${height}`).toBe(icon.sizes);
    }
  });
});

describe('PWA chrome', () => {
  it('<pwa-status> says the app is offline ready; <pwa-install-button> appears once the browser offers installation', async () => {
    const page = browser.page;
    // The shell's own chrome, which gets the PWA controller from the shell through context.
    await expect.poll(() => page.locator('app-shell pwa-status').getByRole('status').textContent(), { timeout: 30_000 }).toContain('Offline ready');
    // Chromium offers installation (beforeinstallprompt) once the manifest and service worker pass its checks.
    await page.locator('app-shell pwa-install-button').getByRole('button', { name: 'Install app' }).waitFor({ timeout: 30_000 });
  });
});
