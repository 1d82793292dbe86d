/**
 * The websites roll-up is one tab stop: Tab from the top of <websites-view> reaches the first listed site past a
 * roll-up of 170 owners (synthetic names, as many as the real snapshot's agencies and more) in a few presses, and
 * the arrow keys move within the roll-up. Its shares say their denominator on the page, not only in a tooltip.
 */
import { describe, expect, it } from 'vitest';
import type { RollupsAnswer } from '../../../ui/api/db-client.ts';
import { parseWebsitesQuery, websitesApiUrl } from '../../../ui/state/websites-query.ts';
import { currentHash, focused } from '../../../harness/browsers/app.ts';
import { componentSessionPerFile, type FakeAnswers } from './component-session.ts';

const session = componentSessionPerFile();
const page = () => session().page;

const OWNERS = Array.from({ length: 170 }, (_, i) => `Synthetic agency ${String(i + 1).padStart(3, '0')}`);
const row = (name: string | null, sites: number) => ({ name, sites, live: sites - 1, dap: 1, uswds: 0, banner: 0, statuses: { completed: sites } });
const rollups: RollupsAnswer = {
  ok: true,
  rollups: {
    group: 'target_url_agency_owner',
    rows: OWNERS.map((name, i) => row(name, 200 - i)),
    total: row(
      null,
      OWNERS.reduce((n, _, i) => n + 200 - i, 0),
    ),
  },
};
const answers: FakeAnswers = { websiteOwners: () => [], websiteRollups: () => rollups };

async function mount(): Promise<void> {
  await session().mount('websites-view', { properties: { params: { $searchParams: '' } }, answers });
  await expect.poll(() => page().locator('websites-view').getAttribute('data-rendered-url')).toBe(websitesApiUrl(parseWebsitesQuery(new URLSearchParams())));
  await page().locator('#rollup-table tbody tr').first().waitFor({ state: 'attached' });
}

/** Tab presses from the top of the page until a listed site's link has focus (at most `limit`). */
async function tabsToFirstSite(limit: number): Promise<number> {
  for (let n = 1; n <= limit; n++) {
    await page().keyboard.press('Tab');
    const inTable = await page().evaluate(() => {
      let el: Element | null = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      return !!el?.closest('#websites-table');
    });
    if (inTable) return n;
  }
  return Infinity;
}

describe('websites roll-up and the keyboard', () => {
  it('the first listed site is a few Tabs from the top, past 170 owners', async () => {
    await mount();
    const tabs = await tabsToFirstSite(400);
    console.log(`Tab presses from the top of websites-view to the first site, past a roll-up of ${OWNERS.length} owners: ${tabs}`);
    // The filters, the roll-up's switch and its one stop, the export: not one stop per owner.
    expect(tabs).toBeLessThan(30);
  });

  it('the arrow keys move within the roll-up; Enter on a name filters the list to it', async () => {
    await mount();
    await page().locator(`#rollup-table tr[data-owner="${OWNERS[0]}"] button`).focus();
    await page().keyboard.press('ArrowDown');
    expect(await focused(page())).toMatchObject({ tag: 'button', text: OWNERS[1] });
    await page().keyboard.press('PageDown');
    expect(await focused(page())).toMatchObject({ tag: 'button', text: OWNERS[11] });
    await page().keyboard.press('Control+End');
    expect(await focused(page())).toMatchObject({ tag: 'button', text: OWNERS.at(-1) });
    // Up from the first name reaches the headings, then along them.
    await page().keyboard.press('Control+Home');
    expect((await focused(page())).text).toMatch(/^Agency/);
    await page().keyboard.press('ArrowRight');
    expect((await focused(page())).text).toMatch(/^Sites/);
    await page().keyboard.press('ArrowDown');
    expect(await focused(page())).toMatchObject({ tag: 'button', text: OWNERS[0] });
    await page().keyboard.press('Enter');
    await expect.poll(() => currentHash(page())).toContain(`target_url_agency_owner=${OWNERS[0]}`);
  });

  it('at 390 px the count of matching sites is in view without scrolling; the roll-up is a button away', async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    try {
      await mount();
      const count = await page().locator('websites-view .count-row [role="status"]').boundingBox();
      expect(count!.y + count!.height).toBeLessThanOrEqual(844);
      const toggle = page().getByRole('button', { name: 'Show the roll-up by agency' });
      expect(await page().locator('#rollup-table').isVisible()).toBe(false);
      await toggle.click();
      expect(await page().locator('#rollup-table').isVisible()).toBe(true);
      expect(await page().getByRole('button', { name: 'Hide the roll-up by agency' }).getAttribute('aria-expanded')).toBe('true');
    } finally {
      await page().setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('says what each share is out of, on the page', async () => {
    await mount();
    const text = await page().locator('#rollup-definition').innerText();
    expect(text).toContain('out of the row');
    expect(text).toContain('whether its scan completed or not');
  });
});
