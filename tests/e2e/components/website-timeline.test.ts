/**
 * <website-detail>'s top and its weeks: the summary strip (scan, live, DAP, USWDS, banner, the week's date) above
 * everything else; the site's weeks facts first (scan, live, DAP, USWDS, banner, the changes marked), the other
 * fields that changed on demand and every field on request (a synthetic timeline, made up for the test); the page
 * no wider than a phone's screen; and the offer to load the weeks when they are not loaded.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import type { SiteTimeline, WeeksHeld } from '../../../ui/api/db-client.ts';
import type { WebsiteRecord, WebsitesResponse } from '../../../ui/api/api-types.ts';
import { engineJson } from '../../../harness/browsers/app.ts';
import { componentSessionPerFile, loadedStatus } from './component-session.ts';
import { datasetDefinition } from '../../../engine/dataset-registry.ts';
import { downloadedText } from '../../../harness/browsers/browser.ts';

const session = componentSessionPerFile();
const page = () => session().page;
let site: WebsiteRecord;

beforeAll(async () => {
  site = engineJson<WebsitesResponse>(session().engine, '/websites?limit=1&scan_status=completed').body.items[0];
});

const HELD: WeeksHeld = {
  weeks: [
    { date: '2025-05-26', count: 10 },
    { date: '2025-06-02', count: 11 },
    { date: '2025-06-09', count: 12 },
  ],
  partial: [{ date: '2025-05-26', why: 'a test’s first week' }],
};

const values = (extra: Record<string, unknown>) => ({
  scan_status: 'completed',
  final_url_live: true,
  dap_detected_final_url: false,
  ds_usa_classes: 0,
  ds_banner_heres_how: false,
  final_url: 'https://example.gov/',
  cms: null,
  ...extra,
});

const timeline = (): SiteTimeline => ({
  targetUrl: site.target_url,
  weeks: [
    { date: '2025-05-26', state: 'absent', values: {}, changed: [] },
    { date: '2025-06-02', state: 'present', values: values({ scan_status: 'timeout', final_url_live: false }), changed: [] },
    {
      date: '2025-06-09',
      state: 'present',
      values: values({ ds_usa_classes: 12, final_url: 'https://www.example.gov/', cms: 'Drupal' }),
      changed: ['scan_status', 'final_url_live', 'ds_usa_classes', 'final_url', 'cms'],
    },
  ],
});

const answers = { siteTimeline: timeline, weeksHeld: () => HELD };

describe('website-detail: summary strip and timeline', () => {
  it('puts the facts first: scan, live, DAP, USWDS, banner and the week they are from', async () => {
    await session().mount('website-detail', { properties: { url: site.target_url }, answers: { siteTimeline: () => null, weeksHeld: () => null } });
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

  it('gives each week’s facts, newest first, the changes marked, the other changed fields on demand', async () => {
    await session().mount('website-detail', { properties: { url: site.target_url }, answers });
    await page().locator('#site-timeline').waitFor();
    expect(await session().callsTo('siteTimeline')).toEqual([[site.target_url.toLowerCase()]]);
    expect(
      await page()
        .locator('#site-timeline tbody tr')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-week'))),
    ).toEqual(['2025-06-09', '2025-06-02', '2025-05-26']);
    expect(await page().locator('#site-timeline thead th').allTextContents()).toEqual(['Week', 'Scan', 'Live', 'DAP', 'USWDS', 'Banner', 'Other']);
    const row = (week: string) =>
      page()
        .locator(`#site-timeline tr[data-week="${week}"] td[data-fact]`)
        .evaluateAll((tds) => tds.map((td) => [td.getAttribute('data-fact'), td.querySelector('.v')?.textContent, td.getAttribute('data-changed')]));
    expect(await row('2025-06-09')).toEqual([
      ['status', 'completed', 'yes'],
      ['live', 'Yes', 'yes'],
      ['dap', 'No', 'no'],
      ['uswds', 'Yes (12)', 'yes'],
      ['banner', 'No', 'no'],
    ]);
    expect(await row('2025-06-02')).toEqual([
      ['status', 'timeout', 'no'],
      ['live', 'No', 'no'],
      ['dap', 'No', 'no'],
      ['uswds', 'No', 'no'],
      ['banner', 'No', 'no'],
    ]);
    expect(await page().locator('#site-timeline tr[data-week="2025-06-09"] td[data-fact="live"]').textContent()).toContain('(changed)');
    // The other fields that changed, behind their count.
    const others = page().locator('#site-timeline tr[data-week="2025-06-09"] details');
    expect(await others.getAttribute('data-others')).toBe('2');
    expect(await others.locator('li').first().isVisible()).toBe(false);
    await others.locator('summary').click();
    expect(await others.locator('li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-field')))).toEqual(['final_url', 'cms']);
    expect(await others.locator('li[data-field="cms"]').textContent()).toBe('CMS: Drupal');
    // A week that did not list the site says so, and that the week is partial.
    expect(await page().locator('#site-timeline tr[data-week="2025-05-26"]').getAttribute('data-state')).toBe('absent');
    expect(await page().locator('#site-timeline tr[data-week="2025-05-26"] td').textContent()).toBe("Not in that week's list (a partial week)");
    expect(await page().locator('#timeline-title').textContent()).toBe('Week by week');
  });

  it('shows every field week by week on request, the changes marked', async () => {
    await session().mount('website-detail', { properties: { url: site.target_url }, answers });
    await page().locator('#site-timeline').waitFor();
    expect(await page().locator('#site-timeline-all').count()).toBe(0);
    const toggle = page().getByRole('button', { name: 'Show every field, week by week' });
    await toggle.click();
    await page().locator('#site-timeline-all').waitFor();
    expect(await page().getByRole('button', { name: 'Hide every field, week by week' }).getAttribute('aria-expanded')).toBe('true');
    const changed = await page()
      .locator('#site-timeline-all tr[data-week="2025-06-09"] td[data-changed="yes"]')
      .evaluateAll((tds) => tds.map((td) => td.getAttribute('data-field')));
    expect(changed).toEqual(['scan_status', 'final_url_live', 'ds_usa_classes', 'final_url', 'cms']);
  });

  it('fits a phone’s screen: the page is no wider than 390 px, every field shown too', async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    try {
      await session().mount('website-detail', { properties: { url: site.target_url }, answers });
      await page().locator('#site-timeline').waitFor();
      const width = () => page().evaluate(() => document.documentElement.scrollWidth);
      expect(await width()).toBeLessThanOrEqual(390);
      await page().getByRole('button', { name: 'Show every field, week by week' }).click();
      await page().locator('#site-timeline-all').waitFor();
      expect(await width()).toBeLessThanOrEqual(390);
    } finally {
      await page().setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('exports the weeks as CSV, oldest first, with what changed', async () => {
    await session().mount('website-detail', { properties: { url: site.target_url }, answers });
    await page().locator('#site-timeline').waitFor();
    const [download] = await Promise.all([page().waitForEvent('download'), page().getByRole('button', { name: 'Export these weeks as CSV' }).click()]);
    const rows = Papa.parse<string[]>(await downloadedText(download), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Site', site.target_url]);
    const header = rows.findIndex((r) => r[0] === 'Week');
    expect(rows[header]).toEqual([
      'Week',
      'In the list',
      'scan_status',
      'final_url_live',
      'dap_detected_final_url',
      'ds_usa_classes',
      'ds_banner_heres_how',
      'final_url',
      'cms',
      'Changed',
    ]);
    expect(rows.slice(header + 1)).toEqual([
      ['2025-05-26', 'no', '', '', '', '', '', '', '', ''],
      ['2025-06-02', 'yes', 'timeout', 'No', 'No', '0', 'No', 'https://example.gov/', '', ''],
      [
        '2025-06-09',
        'yes',
        'completed',
        'Yes',
        'No',
        '12',
        'No',
        'https://www.example.gov/',
        'Drupal',
        'scan_status final_url_live ds_usa_classes final_url cms',
      ],
    ]);
  });

  it('without the weeks: offers to load them', async () => {
    const status = loadedStatus(session().manifest);
    const extra = {
      id: datasetDefinition('websites').attachment!.id,
      title: 'Every week of Site Scanning (real)',
      name: 'websites' as const,
      file: 'websites-weeks.sqlite.gz',
      bytes: 3 * 1024 * 1024,
      rawBytes: 30 * 1024 * 1024,
      sha256: '0'.repeat(64),
      rows: { website_week_rows: 60000 },
      source: { kind: 'real' as const, label: 'GSA Site Scanning, 17 weeks' },
    };
    await session().mount('website-detail', {
      properties: { url: site.target_url },
      answers: { siteTimeline: () => null, weeksHeld: () => null, status: () => ({ ...status, extras: [extra as never] }) },
    });
    await page().getByRole('button', { name: 'Load every week (3.0 MB)' }).waitFor();
    expect(await page().locator('weeks-load h2').textContent()).toBe('Week by week: the weeks are not loaded');
  });
});
