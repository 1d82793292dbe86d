/** <rates-view> alone: the query it asks the DB client for, what it draws, its events and its keyboard use. */
import { describe, expect, it } from 'vitest';
import type { RatesResponse } from '../../../ui/api/api-types.ts';
import type { PriceFiguresAnswer } from '../../../ui/api/db-client.ts';
import { parseRatesQuery, ratesApiUrl, type RatesQuery } from '../../../ui/state/rates-query.ts';
import { currentHash, engineJson, focused } from '../../../harness/browsers/app.ts';
import { componentSessionPerFile, type FakeAnswers } from './component-session.ts';

const session = componentSessionPerFile();

const page = () => session().page;
const view = () => page().locator('rates-view');
const tableIds = () =>
  page()
    .locator('rates-table tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
/** The query the view navigated to, read back from the hash. */
const hashQuery = async (): Promise<RatesQuery> => parseRatesQuery(new URLSearchParams((await currentHash(page())).split('?')[1] ?? ''));

async function mountWith(query: string, answers: FakeAnswers = {}): Promise<string> {
  await session().mount('rates-view', { properties: { params: { $searchParams: query } }, answers });
  const url = ratesApiUrl(parseRatesQuery(new URLSearchParams(query)));
  await expect.poll(() => view().getAttribute('data-rendered-url')).toBe(url);
  return url;
}

describe('rates-view with a fake DB client', () => {
  it('asks for its query once and draws the answer in the table', async () => {
    const url = await mountWith('keyword=engineer&ordering=current_price');
    expect((await session().callsTo('getJson')).map(([u]) => u)).toEqual([url]);
    const hits = engineJson<RatesResponse>(session().engine, url).body.hits.hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(await tableIds()).toEqual(hits.map((h) => h._id));
    expect(session().errors).toEqual([]);
  });

  it('a search typed and sent with Enter navigates to that keyword, from the first page', async () => {
    await mountWith('keyword=engineer&page=2');
    await page().locator('#q').fill('analyst');
    await page().locator('#q').press('Enter');
    await expect.poll(async () => (await hashQuery()).keyword).toBe('analyst');
    expect((await hashQuery()).page).toBe(1);
  });

  it('a proposed price goes to the route; with it the view asks the worker for its rank and shows it', async () => {
    await mountWith('keyword=engineer');
    await page().getByLabel('Proposed price (per hour)').fill('120');
    await page().getByLabel('Proposed price (per hour)').press('Enter');
    await expect.poll(async () => (await hashQuery()).proposed).toBe(120);

    // The worker's figures for the current price are the API's own; only the check is the worker's.
    const aggregations = engineJson<RatesResponse>(session().engine, ratesApiUrl(parseRatesQuery(new URLSearchParams('keyword=engineer')))).body.aggregations;
    const figures: PriceFiguresAnswer = {
      ok: true,
      figures: {
        field: 'current_price',
        matches: aggregations.wage_stats.count,
        stats: aggregations.wage_stats,
        median: aggregations.median_price.values['50.0'] ?? null,
        percentiles: aggregations.histogram_percentiles.values,
        histogram: aggregations.wage_histogram.buckets,
        check: { price: 120, below: 1, equal: 0, percentileRank: 25, difference: -10, differencePercent: -7.69 },
        titles: [],
      },
    };
    await mountWith('keyword=engineer&proposed_price=120', { priceFigures: () => figures });
    const [query, year, proposed] = (await session().callsTo('priceFigures'))[0];
    const shown = ratesApiUrl(parseRatesQuery(new URLSearchParams('keyword=engineer')));
    expect([query, year, proposed]).toEqual([shown.split('?')[1], 'current_price', 120]);
    await expect.poll(() => page().locator('[data-check="rank"]').textContent()).toBe('25th');
  });

  it('Export CSV asks the worker for every match of the query and reports its refusal', async () => {
    await mountWith('keyword=engineer', { exportRatesCsv: () => ({ ok: false, status: 406, message: 'the export is too large' }) });
    await page()
      .getByRole('button', { name: /^Export CSV/ })
      .click();
    await expect.poll(() => page().getByText('Export failed: the export is too large (HTTP 406)').count()).toBe(1);
    const [[query, notes, onProgress, titles]] = await session().callsTo('exportRatesCsv');
    const url = ratesApiUrl({ ...parseRatesQuery(new URLSearchParams('keyword=engineer')), page: 1 });
    expect(query).toBe(url.split('?')[1]);
    expect(notes).toContainEqual(['API request', `GET ${url}`]);
    expect([onProgress, titles]).toEqual(['[function]', []]);
  });

  it("Enter on a row's Exclude button excludes that record and keeps the focus on the table", async () => {
    const url = await mountWith('keyword=engineer');
    const first = engineJson<RatesResponse>(session().engine, url).body.hits.hits[0];
    await page().locator('rates-table button.exclude').first().focus();
    await page().keyboard.press('Enter');
    await expect.poll(async () => (await hashQuery()).exclude).toEqual([first._id]);
  });

  it('Tab reaches the search box, then its Search button', async () => {
    await mountWith('');
    await page().locator('#q').focus();
    await page().keyboard.press('Tab');
    expect(await focused(page())).toMatchObject({ tag: 'button', text: 'Search' });
  });
  it('draws the first ten new rows in the render that brings them, the rest in the next task; done means all', async () => {
    const url = await mountWith('page_size=50');
    const hits = engineJson<RatesResponse>(session().engine, url).body.hits.hits;
    expect(hits.length).toBe(50);
    expect(await tableIds()).toEqual(hits.map((h) => h._id));
    // Fifty rows again from none: the first render (microtasks only, so the next task cannot run) draws ten.
    const counts = await page().evaluate(async (rows) => {
      const table = document.querySelector('rates-view')!.shadowRoot!.querySelector('rates-table') as unknown as HTMLElement & {
        hits: unknown[];
        isUpdatePending: boolean;
        updateComplete: Promise<boolean>;
      };
      const drawn = () => table.shadowRoot!.querySelectorAll('tbody tr').length;
      table.hits = [];
      await table.updateComplete;
      const none = drawn();
      table.hits = rows;
      for (let i = 0; i < 20 && table.isUpdatePending; i++) await Promise.resolve();
      const first = drawn();
      await table.updateComplete;
      return { none, first, all: drawn() };
    }, hits);
    expect(counts).toEqual({ none: 0, first: 10, all: 50 });
  });
});
