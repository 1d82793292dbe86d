/** <price-check> alone: the check it shows, and the changes it reports (year by arrow keys, proposed price by Enter). */
import { describe, expect, it } from 'vitest';
import type { PriceCheck } from '../../../ui/api/db-client.ts';
import { focused } from '../../../harness/browsers/app.ts';
import { componentSessionPerFile } from './component-session.ts';

const session = componentSessionPerFile();

const page = () => session().page;
const check: PriceCheck = { price: 125, below: 30, equal: 2, percentileRank: 62.5, difference: 12.5, differencePercent: 11.11 };

describe('price-check', () => {
  it('shows the rank and the distance from the median of the check it is given', async () => {
    await session().mount('price-check', { properties: { proposed: 125, check } });
    expect(await page().locator('strong[data-check="rank"]').textContent()).toBe('63rd');
    expect(await page().locator('[data-check="difference"]').textContent()).toBe('+$12.50');
    expect(await page().locator('[data-check="percent"]').textContent()).toBe('(+11.1%)');
    expect(await page().getByText('(30 below, 2 equal)').count()).toBe(1);
    // It asks the data nothing itself: the view does.
    expect(await session().calls()).toEqual([]);
  });

  it('without a proposed price it says what to do', async () => {
    await session().mount('price-check');
    expect(await page().locator('p.result').textContent()).toBe('Enter a proposed price to see where it falls among the matches.');
  });

  it('a price typed and confirmed with Enter is reported; clearing it reports null; the same price is not reported twice', async () => {
    await session().mount('price-check', { properties: { proposed: 125 } });
    await session().listen('price-check-change');
    const input = page().getByLabel('Proposed price (per hour)');
    await input.fill('99.5');
    await input.press('Enter');
    await input.fill('');
    await input.press('Enter');
    await input.fill('125');
    await input.press('Enter');
    expect(await session().events('price-check-change')).toEqual([{ patch: { proposed: 99.5 } }, { patch: { proposed: null } }]);
  });

  it('the contract years are one radio group: Tab enters it at the chosen year, arrow keys report the next year', async () => {
    await session().mount('price-check', { properties: { year: 'current_price' } });
    await session().listen('price-check-change');
    await page().keyboard.press('Tab');
    expect(await focused(page())).toMatchObject({ tag: 'input' });
    expect(await page().evaluate(() => document.querySelector('price-check')!.shadowRoot!.activeElement!.getAttribute('value'))).toBe('current_price');
    await page().keyboard.press('ArrowRight');
    expect(await session().events('price-check-change')).toEqual([{ patch: { year: 'next_year_price' } }]);
    // One more Tab leaves the group for the price box.
    await page().keyboard.press('Tab');
    expect(await focused(page())).toMatchObject({ id: 'proposed' });
  });
});
