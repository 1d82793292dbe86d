/**
 * <website-detail>'s top and its weeks: the summary strip (scan, live, DAP, USWDS, banner, the snapshot's date) above
 * everything else, each core field week by week with the changes marked (a synthetic timeline, made up for the test),
 * and the offer to load the weeks when they are not loaded, with the earlier weeks' table saying it lists only changes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import type { SiteHistory, SiteTimeline } from '../../../ui/api/db-client.ts';
import type { WebsiteRecord, WebsitesResponse } from '../../../ui/api/api-types.ts';
import { engineJson } from '../app.ts';
import { componentSessionPerFile, loadedStatus } from './component-session.ts';
import { WEEKS_EXTRA_ID } from '../../../dataset/websites/weeks-contract.ts';
import { downloadedText } from '../browser.ts';

const session = componentSessionPerFile();
const page = () => session().page;
let site: WebsiteRecord;

beforeAll(async () => {
  site = engineJson<WebsitesResponse>(session().engine, '/websites?limit=1&scan_status=completed').body.items[0];
});

const timeline = (): SiteTimeline => ({
  targetUrl: site.target_url,
  weeks: [
    { date: '2025-05-26', state: 'absent', values: {}, changed: [] },
    { date: '2025-06-02', state: 'present', values: { scan_status: 'timeout', final_url_live: false, dap_detected_final_url: false }, changed: [] },
    {
      date: '2025-06-09',
      state: 'present',
      values: { scan_status: 'completed', final_url_live: true, dap_detected_final_url: false },
      changed: ['scan_status', 'final_url_live'],
    },
  ],
});

describe('website-detail: summary strip and timeline', () => {
  it('puts the facts first: scan, live, DAP, USWDS, banner and the week they are from', async () => {
    await session().mount('website-detail', { properties: { url: site.target_url }, answers: { websiteHistory: () => null, siteTimeline: () => null } });
    await page().locator('#site-summary').waitFor();
    const facts = await page()
      .locator('#site-summary > div')
      .evaluateAll((ds) => ds.map((d) => [d.getAttribute('data-summary'), d.querySelector('dd')!.textContent!.trim()]));
    const yes = (v: boolean | null) => (v === null ? 'not reported' : v ? 'Yes' : 'No');
    expect(facts.slice(0, 3)).toEqual([
      ['status', 'completed'],
      ['live', yes(site.final_url_live)],
      ['dap', yes(site.dap_detected_final_url)],
    ]);
    expect(facts.map(([k]) => k)).toEqual(['status', 'live', 'dap', 'uswds', 'banner', 'week']);
    // The small test data are generated: the strip says so instead of a date.
    expect(facts.at(-1)?.[1]).toBe('generated data');
    // Above the full record, not under it.
    const strip = await page().locator('#site-summary').boundingBox();
    const record = await page().locator('#website-fields').boundingBox();
    expect(strip!.y).toBeLessThan(record!.y);
  });

  it('draws each core field week by week, newest first, the changes marked', async () => {
    await session().mount('website-detail', { properties: { url: site.target_url }, answers: { websiteHistory: () => null, siteTimeline: timeline } });
    await page().locator('#site-timeline').waitFor();
    expect(await session().callsTo('siteTimeline')).toEqual([[site.target_url.toLowerCase()]]);
    expect(
      await page()
        .locator('#site-timeline tbody tr')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-week'))),
    ).toEqual(['2025-06-09', '2025-06-02', '2025-05-26']);
    const changed = await page()
      .locator('#site-timeline tr[data-week="2025-06-09"] td[data-changed="yes"]')
      .evaluateAll((tds) => tds.map((td) => td.getAttribute('data-field')));
    expect(changed).toEqual(['scan_status', 'final_url_live']);
    expect(await page().locator('#site-timeline tr[data-week="2025-06-09"] td[data-field="final_url_live"]').textContent()).toContain('(changed)');
    expect(await page().locator('#site-timeline td[data-changed="yes"]').count()).toBe(2);
    expect(await page().locator('#site-timeline tr[data-week="2025-05-26"]').getAttribute('data-state')).toBe('absent');
    expect(await page().locator('#timeline-title').textContent()).toBe('Week by week');
  });

  it('exports the weeks as CSV, oldest first, with what changed', async () => {
    await session().mount('website-detail', { properties: { url: site.target_url }, answers: { websiteHistory: () => null, siteTimeline: timeline } });
    await page().locator('#site-timeline').waitFor();
    const [download] = await Promise.all([page().waitForEvent('download'), page().getByRole('button', { name: 'Export these weeks as CSV' }).click()]);
    const rows = Papa.parse<string[]>(await downloadedText(download), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Site', site.target_url]);
    const header = rows.findIndex((r) => r[0] === 'Week');
    expect(rows[header]).toEqual(['Week', 'In the list', 'scan_status', 'final_url_live', 'dap_detected_final_url', 'Changed']);
    expect(rows.slice(header + 1)).toEqual([
      ['2025-05-26', 'no', '', '', '', ''],
      ['2025-06-02', 'yes', 'timeout', 'No', 'No', ''],
      ['2025-06-09', 'yes', 'completed', 'Yes', 'No', 'scan_status final_url_live'],
    ]);
  });

  it('without the weeks: the earlier weeks say they list only the fields that differ, and the weeks can be loaded', async () => {
    const history: SiteHistory = {
      date: '2025-06-09',
      weeks: [{ date: '2025-02-10', state: 'changed', changes: [{ field: 'final_url_live', then: false, now: true }] }],
    };
    const status = loadedStatus(session().manifest);
    const extra = {
      id: WEEKS_EXTRA_ID,
      title: 'Every Site Scanning week (real)',
      name: 'websites' as const,
      file: 'websites-weeks.sqlite.gz',
      bytes: 3 * 1024 * 1024,
      rawBytes: 30 * 1024 * 1024,
      sha256: '0'.repeat(64),
      rows: { websites: 36000 },
      source: { kind: 'real' as const, label: 'GSA Site Scanning, 17 weekly snapshots' },
    };
    await session().mount('website-detail', {
      properties: { url: site.target_url },
      answers: { websiteHistory: () => history, siteTimeline: () => null, status: () => ({ ...status, extras: [extra as never] }) },
    });
    await page().locator('#history-note').waitFor();
    expect(await page().locator('#history-note').textContent()).toContain('only the fields that differ');
    expect(await page().locator('table[data-week="2025-02-10"] thead th').first().textContent()).toBe('Field that differs');
    await page().getByRole('button', { name: 'Load every week (3.0 MB)' }).waitFor();
  });
});
