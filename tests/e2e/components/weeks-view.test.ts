/**
 * <weeks-view> alone, over synthetic weeks (figures made up for the test, small enough to check by hand): the offer
 * to load the weeks, the trend drawn and tabulated with its denominators, the first week marked partial and the
 * choice to start at the first complete one, the choices kept in the hash, the CSV, the comparison of two weeks
 * (of every agency or one agency's, lost and came up defined), and the keyboard through the list of groups.
 */
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import type { ImportOutcome, TrendsQuery, WeekDiff, WeekEntry, WeeklyTrends, WeeksHeld } from '../../../ui/api/db-client.ts';
import { datasetDefinition } from '../../../engine/dataset-registry.ts';
import { CAME_UP_DEFINITION, LOST_DEFINITION } from '../../../engine/site-scanning/week-diff.ts';

const WEEKS_EXTRA_ID = datasetDefinition('websites').attachment!.id;
import { currentHash, focused } from '../../../harness/browsers/app.ts';
import { componentSessionPerFile, loadedStatus, type FakeAnswers } from './component-session.ts';
import { downloadedText } from '../../../harness/browsers/browser.ts';

const session = componentSessionPerFile();
const page = () => session().page;

const DATES = ['2025-05-26', '2025-06-02', '2025-06-09'];
const WEEKS: WeekEntry[] = DATES.map((date, i) => ({ date, count: 10 + i }));
/** The first week is partial, as the real first week is. */
const HELD: WeeksHeld = { weeks: WEEKS, partial: [{ date: DATES[0], why: 'a test’s first week' }] };

/** Synthetic: agency A keeps 4 sites and gains DAP (1, 2, 4 of 4); B has 6, 6, then 7 sites; C appears in the last week. */
const point = (date: string, sites: number, live: number, dap: number, uswds: number, outcomes: Record<string, number>) => ({
  date,
  sites,
  live,
  dap,
  uswds,
  banner: Math.min(live, 1),
  outcomes,
});
const BY_AGENCY: WeeklyTrends = {
  dates: DATES,
  series: [
    {
      name: 'Agency B',
      points: [
        point(DATES[0], 6, 5, 3, 1, { completed: 5, timeout: 1 }),
        point(DATES[1], 6, 5, 3, 1, { completed: 6 }),
        point(DATES[2], 7, 6, 3, 2, { completed: 6, dns_resolution_error: 1 }),
      ],
    },
    {
      name: 'Agency A',
      points: [
        point(DATES[0], 4, 4, 1, 0, { completed: 4 }),
        point(DATES[1], 4, 4, 2, 0, { completed: 4 }),
        point(DATES[2], 4, 3, 4, 1, { completed: 3, timeout: 1 }),
      ],
    },
    { name: 'Agency C', points: [point(DATES[0], 0, 0, 0, 0, {}), point(DATES[1], 0, 0, 0, 0, {}), point(DATES[2], 1, 1, 0, 0, { completed: 1 })] },
  ],
};
const BY_BUREAU: WeeklyTrends = {
  dates: DATES,
  series: [{ name: 'Bureau A1', points: BY_AGENCY.series[1].points }],
};

const DIFF: WeekDiff = {
  sites: { before: 10, after: 12 },
  scope: {},
  totals: { added: 2, removed: 0, lost: 1, came_up: 0, dap_gained: 3, dap_lost: 0, uswds_gained: 2, uswds_lost: 0, status_changed: 2 },
  by: 'agency',
  groups: [
    {
      name: 'Agency A',
      counts: { added: 0, removed: 0, lost: 1, came_up: 0, dap_gained: 3, dap_lost: 0, uswds_gained: 1, uswds_lost: 0, status_changed: 1 },
    },
    {
      name: 'Agency B',
      counts: { added: 1, removed: 0, lost: 0, came_up: 0, dap_gained: 0, dap_lost: 0, uswds_gained: 1, uswds_lost: 0, status_changed: 1 },
    },
    {
      name: 'Agency C',
      counts: { added: 1, removed: 0, lost: 0, came_up: 0, dap_gained: 0, dap_lost: 0, uswds_gained: 0, uswds_lost: 0, status_changed: 0 },
    },
  ],
  changes: [{ kind: 'lost', targetUrl: 'a1.example.gov', agency: 'Agency A', bureau: 'Bureau A1', before: 'live', after: 'scan failed (timeout)' }],
};
/** Agency A's sites alone, per bureau. */
const DIFF_A: WeekDiff = {
  ...DIFF,
  sites: { before: 4, after: 4 },
  scope: { agency: 'Agency A' },
  by: 'bureau',
  groups: [{ name: 'Bureau A1', counts: DIFF.groups[0].counts }],
};

const trends = (q: TrendsQuery) => (q.by === 'bureau' ? BY_BUREAU : BY_AGENCY);
const loaded: FakeAnswers = {
  weeksHeld: () => HELD,
  weeklyTrends: trends,
  compareWeeks: (_before: string, _after: string, scope?: { agency?: string }) => ({ ok: true, diff: scope?.agency ? DIFF_A : DIFF }),
};

async function mount(query: string, answers: FakeAnswers = loaded): Promise<void> {
  await session().mount('weeks-view', { properties: { params: { $searchParams: query } }, answers, hash: `#/weeks?${query}` });
}

const cell = (week: string, line: string) => page().locator(`#trend-numbers tr[data-week="${week}"] td[data-line="${line}"]`);

describe('weeks-view with a fake DB client', () => {
  it('offers to load the weeks when they are not loaded, and asks again once they are', async () => {
    let held = false;
    const status = loadedStatus(session().manifest);
    const extra = {
      id: WEEKS_EXTRA_ID,
      title: 'Every Site Scanning week (real)',
      name: 'websites' as const,
      file: 'websites-weeks.sqlite.gz',
      bytes: 5 * 1024 * 1024,
      rawBytes: 50 * 1024 * 1024,
      sha256: '0'.repeat(64),
      rows: { websites: 36000 },
      source: { kind: 'real' as const, label: 'GSA Site Scanning, 3 weekly snapshots' },
    };
    const done = {
      ok: true,
      imported: {
        id: 'weeks-1',
        dataset: 'websites',
        fileName: extra.title,
        format: 'sqlite',
        formatLabel: 'SQLite',
        importedAt: '2026-11-27T05:00:00Z',
        rows: { websites: 36000 },
        rowsImported: 36000,
        rowsRejected: 0,
        sourceBytes: extra.bytes,
        bytes: extra.bytes,
        rawBytes: extra.rawBytes,
      },
      report: null,
    } as unknown as ImportOutcome;
    await mount('', {
      ...loaded,
      weeksHeld: () => (held ? HELD : null),
      status: () => ({ ...status, extras: [extra as never] }),
      importBuiltIn: () => {
        held = true;
        return done;
      },
    });
    const button = page().getByRole('button', { name: 'Load every week (5.0 MB)' });
    await button.waitFor();
    expect(await page().locator('weeks-view').getAttribute('data-weeks')).toBe('not-loaded');
    await button.focus();
    await page().keyboard.press('Enter');
    await expect.poll(() => session().callsTo('importBuiltIn')).toEqual([[WEEKS_EXTRA_ID, expect.any(String), '[function]']]);
    await expect.poll(() => page().locator('weeks-view').getAttribute('data-weeks')).toBe('3');
    expect((await session().callsTo('weeksHeld')).length).toBe(2);
    expect(await page().locator('[data-span]').textContent()).toMatch(/3\s+weeks,\s+2025-05-26\s+to\s+2025-06-09/);
  });

  it('says why the weeks kept here cannot be read, above the offer to load them again', async () => {
    const refused = 'the weeks dataset kept here is in an older form (3, not 4): delete it and load it again';
    await mount('', { ...loaded, weeksHeld: () => null, weeksRefused: () => refused });
    await page().locator('weeks-load [data-refused]').waitFor();
    expect(await page().locator('weeks-load [data-refused]').textContent()).toContain(`cannot be read (${refused}). Load them again`);
    expect(await page().locator('weeks-view').getAttribute('data-weeks')).toBe('not-loaded');
  });

  it('draws the DAP trend of every agency and their sum, with each share out of its sites', async () => {
    await mount('');
    await expect.poll(() => page().locator('weeks-trends').getAttribute('data-rendered-trends')).toBe('agency|');
    expect(await session().callsTo('weeklyTrends')).toEqual([[{ by: 'agency' }]]);
    // The sum of every agency, then the largest (at most five).
    expect(
      await page()
        .locator('trend-chart g[data-line]')
        .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-line'))),
    ).toEqual(['All sites', 'Agency B', 'Agency A', 'Agency C']);
    expect(await page().locator('#trend-definition').textContent()).toContain('out of every site in that week’s list');
    expect((await cell(DATES[0], 'Agency A').innerText()).replace(/\s+/g, ' ')).toBe('25.0% 1 of 4');
    expect((await cell(DATES[2], 'Agency A').innerText()).replace(/\s+/g, ' ')).toBe('100% 4 of 4');
    expect((await cell(DATES[2], 'All sites').innerText()).replace(/\s+/g, ' ')).toBe('58.3% 7 of 12');
    // A group with no sites that week has no share, not 0%.
    expect((await cell(DATES[0], 'Agency C').innerText()).replace(/\s+/g, ' ')).toBe('— no sites');
    expect(session().errors).toEqual([]);
  });

  it('keeps the measure, the grouping and the lines in the hash', async () => {
    await mount('');
    await expect.poll(() => page().locator('weeks-trends').getAttribute('data-rendered-trends')).toBe('agency|');
    await page().getByLabel('% live').check();
    await expect.poll(() => currentHash(page())).toBe('#/weeks?metric=live');
    await page().locator('#trend-groups tr[data-group="Agency C"] button').click();
    // The view takes its state from the app's route: here it still holds the first, so the lines' change comes alone.
    await expect.poll(() => currentHash(page())).toBe('#/weeks?g=Agency B&g=Agency A');

    await mount('by=bureau&agency=Agency A&metric=outcome&status=timeout');
    await expect.poll(() => page().locator('weeks-trends').getAttribute('data-rendered-trends')).toBe('bureau|Agency A');
    expect(await session().callsTo('weeklyTrends')).toContainEqual([{ by: 'bureau', agency: 'Agency A' }]);
    expect((await cell(DATES[2], 'Bureau A1').innerText()).replace(/\s+/g, ' ')).toBe('25.0% 1 of 4');
    expect(await page().locator('#trend-status').inputValue()).toBe('timeout');
  });

  it('exports every agency’s every week as CSV, with the source and the denominator on top', async () => {
    await mount('');
    await expect.poll(() => page().locator('weeks-trends').getAttribute('data-rendered-trends')).toBe('agency|');
    const [download] = await Promise.all([
      page().waitForEvent('download'),
      page()
        .getByRole('button', { name: /Export every agency's weeks as CSV/ })
        .click(),
    ]);
    expect(download.suggestedFilename()).toBe('site-scanning-trends-agency-2025-05-26-to-2025-06-09.csv');
    const rows = Papa.parse<string[]>(await downloadedText(download), { skipEmptyLines: true }).data;
    expect(rows.find((r) => r[0] === 'Denominator')?.[1]).toContain('every site in that week’s list');
    const header = rows.findIndex((r) => r[0] === 'Group');
    expect(rows[header].slice(0, 7)).toEqual(['Group', 'Week', 'Sites', 'Live', 'DAP', 'USWDS', 'Banner']);
    expect(rows.find((r) => r[0] === 'Partial week')?.[1]).toBe(`${DATES[0]}: a test’s first week`);
    const body = rows.slice(header + 1);
    expect(body).toHaveLength(4 * 3);
    expect(body.find((r) => r[0] === 'Agency A' && r[1] === DATES[2])?.slice(2, 7)).toEqual(['4', '3', '4', '1', '1']);
    expect(body.find((r) => r[0] === 'All sites' && r[1] === DATES[2])?.slice(2, 7)).toEqual(['12', '10', '7', '3', '3']);
  });

  it('compares the two weeks in the hash, with counts per agency, lost and came up defined', async () => {
    await mount(`before=${DATES[0]}&after=${DATES[2]}`);
    await expect.poll(() => page().locator('weeks-view').getAttribute('data-rendered-diff')).toBe(`${DATES[0]}|${DATES[2]}||`);
    expect(await session().callsTo('compareWeeks')).toEqual([[DATES[0], DATES[2], {}]]);
    expect(await page().locator('[data-total="dap_gained"]').textContent()).toBe('3');
    expect(await page().locator('#lost-definition').textContent()).toBe(LOST_DEFINITION);
    expect(await page().locator('#came-up-definition').textContent()).toBe(CAME_UP_DEFINITION);
    expect(
      await page()
        .locator('#diff-groups tbody tr')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-group'))),
    ).toEqual(['Agency A', 'Agency B', 'Agency C']);
    // The week before is the partial one: the comparison says so.
    expect(await page().locator(`section[aria-labelledby="compare-h"] .partial-note[data-partial="${DATES[0]}"]`).count()).toBe(1);
    await page().locator('#week-after').selectOption(DATES[1]);
    await expect.poll(() => currentHash(page())).toBe(`#/weeks?before=${DATES[0]}&after=${DATES[1]}`);
  });

  it('limits the comparison to one agency’s sites (in the hash), counted per bureau', async () => {
    await mount(`before=${DATES[0]}&after=${DATES[2]}`);
    await expect.poll(() => page().locator('weeks-view').getAttribute('data-rendered-diff')).toBe(`${DATES[0]}|${DATES[2]}||`);
    await page().locator('#compare-agency').selectOption('Agency A');
    await expect.poll(() => currentHash(page())).toBe(`#/weeks?before=${DATES[0]}&after=${DATES[2]}&compare_agency=Agency A`);
    await mount(`before=${DATES[0]}&after=${DATES[2]}&compare_agency=Agency A`);
    await expect.poll(() => page().locator('weeks-view').getAttribute('data-rendered-diff')).toBe(`${DATES[0]}|${DATES[2]}|Agency A|`);
    expect(await session().callsTo('compareWeeks')).toContainEqual([DATES[0], DATES[2], { agency: 'Agency A' }]);
    expect(await page().locator('#diff-groups').getAttribute('data-by')).toBe('bureau');
    expect(await page().locator('#diff-groups tbody tr').getAttribute('data-group')).toBe('Bureau A1');
    expect(await page().locator('[data-whose]').textContent()).toContain('The sites of Agency A');
    await page().locator('#compare-bureau').selectOption('Bureau A1');
    await expect.poll(() => currentHash(page())).toBe(`#/weeks?before=${DATES[0]}&after=${DATES[2]}&compare_agency=Agency A&compare_bureau=Bureau A1`);
  });

  it('marks the partial first week where the trends start with it, and starts them at the first complete week on request', async () => {
    await mount('');
    await expect.poll(() => page().locator('weeks-trends').getAttribute('data-rendered-trends')).toBe('agency|');
    expect(await page().locator('#trend-partial').getAttribute('data-partial')).toBe(DATES[0]);
    expect(await page().locator(`trend-chart g.partial[data-partial="${DATES[0]}"]`).count()).toBe(1);
    expect(await page().locator(`#trend-numbers tr[data-week="${DATES[0]}"]`).getAttribute('class')).toBe('partial');
    expect(await page().locator('#trend-groups th button[data-sort="first"]').textContent()).toContain(`${DATES[0]} (partial)`);
    await page().locator('#trend-from-complete').check();
    await expect.poll(() => currentHash(page())).toBe(`#/weeks?from=${DATES[1]}`);
    await mount(`from=${DATES[1]}`);
    await expect.poll(() => page().locator('weeks-trends').getAttribute('data-rendered-trends')).toBe('agency|');
    expect(await page().locator('#trend-partial').count()).toBe(0);
    expect(
      await page()
        .locator('#trend-numbers tbody tr')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-week'))),
    ).toEqual(DATES.slice(1));
    expect(await page().locator('#trend-from-complete').isChecked()).toBe(true);
    // The change is counted from the first complete week: A 50% -> 100%.
    expect(await page().locator('#trend-groups tr[data-group="Agency A"] td[data-col="change"]').textContent()).toBe('+50.0');
  });

  it('ranks the groups by their change since the first week (the order in the hash)', async () => {
    await mount('order=change');
    await expect.poll(() => page().locator('weeks-trends').getAttribute('data-rendered-trends')).toBe('agency|');
    const order = () =>
      page()
        .locator('#trend-groups tbody tr')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-group')));
    // DAP: A 25% -> 100% (+75.0), B 50% -> 42.9% (−7.1); C had no sites in the first week, so no change: last either way.
    expect(await order()).toEqual(['Agency A', 'Agency B', 'Agency C']);
    expect(await page().locator('#trend-groups tr[data-group="Agency B"] td[data-col="change"]').textContent()).toBe('−7.1');
    await page().locator('#trend-groups th button[data-sort="change"]').click();
    await expect.poll(() => currentHash(page())).toBe('#/weeks?order=change&dir=asc');
    await mount('order=change&dir=asc');
    await expect.poll(() => page().locator('weeks-trends').getAttribute('data-rendered-trends')).toBe('agency|');
    expect(await order()).toEqual(['Agency B', 'Agency A', 'Agency C']);
    // At least 10 sites in the newest week: none of the three (4, 7 and 1).
    await page().locator('#trend-min').selectOption('10');
    await expect.poll(() => currentHash(page())).toBe('#/weeks?min=10&order=change&dir=asc');
    await mount('min=10');
    await expect.poll(() => page().locator('weeks-trends').getAttribute('data-rendered-trends')).toBe('agency|');
    expect(await order()).toEqual([]);
    await mount('min=0');
    await expect.poll(() => page().locator('weeks-trends').getAttribute('data-rendered-trends')).toBe('agency|');
    expect(await order()).toEqual(['Agency B', 'Agency A', 'Agency C']);
  });

  it('the list of groups is one tab stop, crossed with the arrow keys', async () => {
    await mount('');
    await expect.poll(() => page().locator('weeks-trends').getAttribute('data-rendered-trends')).toBe('agency|');
    await page().locator('#trend-groups tr[data-group="Agency B"] button').focus();
    await page().keyboard.press('ArrowDown');
    expect(await focused(page())).toMatchObject({ tag: 'button', text: 'Agency A' });
    await page().keyboard.press('End');
    await page().keyboard.press('Control+End');
    expect(await focused(page())).toMatchObject({ tag: 'button', text: 'Agency C' });
    // Tab leaves the table: the next control is past it.
    await page().keyboard.press('Tab');
    expect((await focused(page())).text).not.toMatch(/^Agency/);
    await page().keyboard.press('Shift+Tab');
    expect(await focused(page())).toMatchObject({ tag: 'button', text: 'Agency C' });
    await page().keyboard.press('Enter');
    await expect.poll(() => currentHash(page())).toBe('#/weeks?g=Agency B&g=Agency A');
  });
});
