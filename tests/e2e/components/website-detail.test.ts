/** <website-detail> alone: the record and weeks it asks for, how it draws them, a missing site, its keyboard use. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebsiteRecord, WebsitesResponse } from '../../../ui/api/api-types.ts';
import { websiteApiUrl } from '../../../ui/state/websites-query.ts';
import { currentHash, engineJson, focused } from '../../../harness/browsers/app.ts';
import { componentSessionPerFile } from './component-session.ts';

const session = componentSessionPerFile();
let site: WebsiteRecord;

beforeAll(async () => {
  site = engineJson<WebsitesResponse>(session().engine, '/websites?limit=1&scan_status=completed').body.items[0];
});

const page = () => session().page;
const field = (name: string) => page().locator(`#website-fields > dd[data-field="${name}"]`);

describe('website-detail with a fake DB client', () => {
  it('asks for the record and its weeks, and draws both', async () => {
    const week = (date: string, live: boolean) => ({
      date,
      state: 'present' as const,
      values: { scan_status: 'completed', final_url_live: live },
      changed: live ? ['final_url_live'] : [],
    });
    await session().mount('website-detail', {
      properties: { url: site.target_url },
      answers: {
        siteTimeline: () => ({
          targetUrl: site.target_url,
          weeks: [{ date: '2026-10-19', state: 'absent', values: {}, changed: [] }, week('2026-10-26', false), week('2026-11-02', true)],
        }),
        weeksHeld: () => ({ weeks: [], partial: [] }),
      },
    });
    await expect.poll(() => field('target_url').count()).toBe(1);

    expect((await session().callsTo('getJson')).map(([u]) => u)).toEqual([websiteApiUrl(site.target_url)]);
    expect(await session().callsTo('siteTimeline')).toEqual([[site.target_url.toLowerCase()]]);
    expect(await field('target_url').textContent()).toContain(site.target_url);
    expect(await page().locator('h1').textContent()).toBe(site.target_url);
    // Every field of the record is listed.
    expect(await page().locator('#website-fields > dd').count()).toBe(Object.keys(site).length);

    const changed = page().locator('#site-timeline tr[data-week="2026-11-02"] td[data-fact="live"][data-changed="yes"]');
    expect(await changed.count()).toBe(1);
    expect(await page().locator('#site-timeline [data-week="2026-10-19"][data-state="absent"]').count()).toBe(1);
    expect(session().errors).toEqual([]);
  });

  it('a site the API does not know is said so, without a section of its weeks', async () => {
    await session().mount('website-detail', {
      properties: { url: 'no-such-site.example.gov' },
      answers: { siteTimeline: () => null, weeksHeld: () => null },
    });
    await expect.poll(() => page().locator('[role="alert"]').textContent()).toBe('No website found for no-such-site.example.gov.');
    expect(await page().locator('#timeline-title').count()).toBe(0);
  });

  it('the first Tab reaches the way back to the list, and Enter follows it', async () => {
    await session().mount('website-detail', { properties: { url: site.target_url }, answers: { siteTimeline: () => null, weeksHeld: () => null } });
    await expect.poll(() => field('target_url').count()).toBe(1);
    await page().keyboard.press('Tab');
    expect(await focused(page())).toMatchObject({ tag: 'a', text: '← All websites' });
    await page().keyboard.press('Enter');
    await expect.poll(() => currentHash(page())).toBe('#/websites');
  });
});
