/** <storage-card> alone: where the data is kept, how much, whether persistent, and what this browser may delete. */
import { describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { componentSessionPerFile } from './component-session.ts';
import { SCREENSHOT_DIR } from '../../../harness/browsers/app.ts';

const session = componentSessionPerFile();
const page = () => session().page;
const field = (name: string) => page().locator(`storage-card [data-field="${name}"]`);

/** The card alone at a desktop's and a phone's width, to look at. */
async function screenshots(name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const width of [1280, 390]) {
    await page().setViewportSize({ width, height: 900 });
    await page()
      .locator('storage-card')
      .screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}.png`) });
  }
  await page().setViewportSize({ width: 1280, height: 800 });
}

describe('storage-card in Chromium', () => {
  it('says the data is in the private file system, how much is used, that it is not persistent yet, and what may delete it', async () => {
    await session().mount('storage-card');
    await expect.poll(() => field('kept-in').getAttribute('data-kind')).toBe('opfs');
    expect(await field('kept-in').textContent()).toContain("the browser's private file system");
    expect(await field('usage').textContent()).toMatch(/\d.* of the .* it allows this site/);
    expect(await field('persisted').textContent()).toMatch(/no: the browser may delete it when space runs short/);
    expect(await page().locator('storage-card [data-rule]').getAttribute('data-rule')).toBe('space');
    // The keyboard reaches the one thing to do here.
    await page().locator('storage-card').focus();
    await page().keyboard.press('Tab');
    expect(await page().evaluate(() => document.querySelector('storage-card')?.shadowRoot?.activeElement?.textContent?.trim())).toBe('Ask to keep it');
    expect(session().errors).toEqual([]);
    await screenshots('storage-card-chromium');
  });

  it("in Safari's engine, not installed: says everything goes after 7 days without a visit unless installed, and how to install", async () => {
    await page().addInitScript(() => {
      Object.defineProperty(navigator, 'userAgent', {
        get: () => 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      });
    });
    await session().mount('storage-card');
    const rule = page().locator('storage-card [data-rule]');
    await expect.poll(() => rule.getAttribute('data-rule')).toBe('seven-days');
    const text = (await rule.textContent())!.replace(/\s+/g, ' ');
    expect(text).toContain('Safari deletes everything this site keeps after 7 days of use without a visit');
    expect(text).toContain('File › Add to Dock');
    expect(text).toContain('Share › Add to Home Screen');
    await screenshots('storage-card-safari');
  });
});
