/** <websites-view> alone: what it asks the DB client for, what it draws of the answers, and its keyboard use. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgencyOwners, RollupsAnswer } from '../../../ui/api/db-client.ts';
import type { WebsitesResponse } from '../../../ui/api/api-types.ts';
import { analysisApiUrl, parseWebsitesQuery, websitesApiUrl } from '../../../ui/state/websites-query.ts';
import { currentHash, engineJson, focused } from '../../../harness/browsers/app.ts';
import { componentSessionPerFile, type FakeAnswers } from './component-session.ts';

const session = componentSessionPerFile();
let owners: AgencyOwners[];
let answers: FakeAnswers;

beforeAll(async () => {
  // The owners the worker would read, from the served data: agencies with the most sites first.
  const rows = session()
    .engine.database('websites')!
    .exec(
      `SELECT target_url_agency_owner, target_url_bureau_owner, COUNT(*) FROM websites
       WHERE target_url_agency_owner IS NOT NULL AND target_url_bureau_owner IS NOT NULL GROUP BY 1, 2`,
    )[0].values as [string, string, number][];
  const byAgency = new Map<string, AgencyOwners>();
  for (const [agency, bureau, count] of rows) {
    const entry = byAgency.get(agency) ?? { agency, count: 0, bureaus: [] };
    entry.count += count;
    entry.bureaus.push({ bureau, count });
    byAgency.set(agency, entry);
  }
  owners = [...byAgency.values()].sort((a, b) => a.agency.localeCompare(b.agency, 'en'));
  const rollups: RollupsAnswer = {
    ok: true,
    rollups: {
      group: 'target_url_agency_owner',
      rows: owners.map((o) => ({ name: o.agency, sites: o.count, live: 0, dap: 0, uswds: 0, banner: 0, statuses: {} })),
      total: { name: null, sites: owners.reduce((n, o) => n + o.count, 0), live: 0, dap: 0, uswds: 0, banner: 0, statuses: {} },
    },
  };
  answers = { websiteOwners: () => owners, websiteRollups: () => rollups };
});

const page = () => session().page;
const listedUrls = () => page().locator('#websites-table tbody tr td.url a').allTextContents();

async function mountWith(query: string): Promise<void> {
  await session().mount('websites-view', { properties: { params: { $searchParams: query } }, answers });
  await expect
    .poll(() => page().locator('websites-view').getAttribute('data-rendered-url'))
    .toBe(websitesApiUrl(parseWebsitesQuery(new URLSearchParams(query))));
}

describe('websites-view with a fake DB client', () => {
  it('asks for the listing, the analysis, the owners and the roll-up of its query, and draws the listing', async () => {
    const query = 'scan_status=completed&page=2&limit=10';
    await mountWith(query);
    const q = parseWebsitesQuery(new URLSearchParams(query));
    const asked = (await session().callsTo('getJson')).map(([url]) => url);
    expect(asked).toContain(websitesApiUrl(q));
    expect(asked).toContain(analysisApiUrl(q));
    expect(await session().callsTo('websiteOwners')).toHaveLength(1);
    expect(await session().callsTo('websiteRollups')).toEqual([['scan_status=completed', 'target_url_agency_owner']]);

    const listing = engineJson<WebsitesResponse>(session().engine, websitesApiUrl(q)).body;
    expect(listing.items.length).toBeGreaterThan(0);
    expect(await listedUrls()).toEqual(listing.items.map((w) => w.target_url));
    await expect
      .poll(() =>
        page()
          .getByText(/^Page 2 of /)
          .count(),
      )
      .toBe(1);
    // The agency picker lists what websiteOwners answered.
    const options = await page().locator('#f-agency option').allTextContents();
    expect(options.slice(1).map((o) => o.replace(/\([\d,]+\)\s*$/, '').trim())).toEqual(owners.map((o) => o.agency));
    expect(session().errors).toEqual([]);
  });

  it('a failed listing says why, in the API error shape', async () => {
    await session().mount('websites-view', {
      properties: { params: { $searchParams: '' } },
      answers: {
        ...answers,
        getJson: (url) => ({
          url,
          status: 503,
          headers: {},
          body: { statusCode: 503, message: 'the websites dataset is not loaded', error: 'Service Unavailable' },
        }),
      },
    });
    await expect.poll(() => page().locator('websites-view p.error[role="alert"]').textContent()).toBe('the websites dataset is not loaded (HTTP 503)');
  });

  it('choosing an agency by keyboard asks for that agency (the route, then the API)', async () => {
    await mountWith('');
    const agency = owners[0].agency;
    await page().locator('#f-agency').focus();
    await page().locator('#f-agency').selectOption(agency);
    await expect.poll(() => currentHash(page())).toBe(`#/websites?target_url_agency_owner=${agency}`);

    // The shell hands the route's query back as params; the view asks the client for it.
    const params = new URLSearchParams({ target_url_agency_owner: agency });
    await page()
      .locator('websites-view')
      .evaluate((el, query) => ((el as HTMLElement & { params: URLSearchParams }).params = new URLSearchParams(query)), params.toString());
    const url = websitesApiUrl(parseWebsitesQuery(params));
    await expect.poll(() => page().locator('websites-view').getAttribute('data-rendered-url')).toBe(url);
    expect((await session().callsTo('getJson')).map(([u]) => u)).toContain(url);
    const expected = engineJson<WebsitesResponse>(session().engine, url).body.items.map((w) => w.target_url);
    expect(await listedUrls()).toEqual(expected);
  });

  it('a domain typed and confirmed with Enter becomes a filter; Tab walks the filters in order', async () => {
    await mountWith('');
    await page().locator('#f-agency').focus();
    const walk: string[] = [];
    for (let i = 0; i < 4; i++) {
      walk.push((await focused(page())).id);
      await page().keyboard.press('Tab');
    }
    expect(walk).toEqual(['f-agency', 'f-bureau', 'f-target-domain', 'f-final-domain']);

    await page().locator('#f-target-domain').focus();
    await page().keyboard.type('gsa.gov');
    await page().keyboard.press('Enter');
    await expect.poll(() => currentHash(page())).toBe('#/websites?target_url_domain=gsa.gov');
  });

  it('the page buttons move to the next page with Enter and Space', async () => {
    await mountWith('limit=10');
    const next = page().getByRole('button', { name: 'Next page' });
    await next.focus();
    await page().keyboard.press('Enter');
    await expect.poll(() => currentHash(page())).toBe('#/websites?page=2&limit=10');
    await page()
      .locator('websites-view')
      .evaluate((el) => ((el as HTMLElement & { params: URLSearchParams }).params = new URLSearchParams('page=2&limit=10')));
    await expect
      .poll(() =>
        page()
          .getByText(/^Page 2 of /)
          .count(),
      )
      .toBe(1);
    await page().getByRole('button', { name: 'Next page' }).focus();
    await page().keyboard.press('Space');
    await expect.poll(() => currentHash(page())).toBe('#/websites?page=3&limit=10');
  });
});
