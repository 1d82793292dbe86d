/** The generated ceiling-rates data: deterministic, shaped like the real service's (specs/data.md). */
import { describe, expect, it } from 'vitest';
import { ceilingRateRecords, ceilingRatesDataset } from '../../../tools/generate/ceilingrates.ts';
import { RECORD_FIELDS } from '../../../engine/ceilingrates/record.ts';
import { sinCodes } from '../../../engine/ceilingrates/text.ts';

const records = [...ceilingRateRecords(20_000, ceilingRatesDataset.seed)];
const share = (test: (r: (typeof records)[number]) => boolean): number => records.filter(test).length / records.length;

describe('ceiling-rates generator', () => {
  it('is deterministic: same seed, same records; another seed, other records', () => {
    const again = [...ceilingRateRecords(500, ceilingRatesDataset.seed)];
    expect(again).toEqual(records.slice(0, 500));
    expect([...ceilingRateRecords(500, ceilingRatesDataset.seed + 1)]).not.toEqual(again);
  });

  it('numbers ids from 1 and keeps the documented field order', () => {
    expect(records.map((r) => r.id)).toEqual(records.map((_, i) => i + 1));
    expect(Object.keys(records[0])).toEqual([...RECORD_FIELDS]);
  });

  it('prices: mostly 15–500, median near 100–150, some outliers, some float artefacts and four decimals', () => {
    const prices = records.map((r) => r.current_price).sort((a, b) => a - b);
    const median = prices[prices.length >> 1];
    expect(median).toBeGreaterThan(90);
    expect(median).toBeLessThan(150);
    expect(share((r) => r.current_price >= 15 && r.current_price <= 500)).toBeGreaterThan(0.9);
    expect(prices[0]).toBeGreaterThanOrEqual(10);
    expect(prices.some((p) => p > 500)).toBe(true);
    expect(prices.some((p) => Math.round(p * 100) / 100 !== p)).toBe(true);
  });

  it('education BA most common, few PHD; business size S about three quarters; experience mostly 1–15', () => {
    const counts = new Map<string, number>();
    for (const r of records) counts.set(r.education_level, (counts.get(r.education_level) ?? 0) + 1);
    const order = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
    expect(order[0]).toBe('BA');
    expect(counts.get('PHD')! / records.length).toBeLessThan(0.06);
    expect(share((r) => r.business_size === 'S')).toBeGreaterThan(0.65);
    expect(share((r) => r.business_size === 'S')).toBeLessThan(0.85);
    expect(share((r) => r.min_years_experience >= 1 && r.min_years_experience <= 15)).toBeGreaterThan(0.75);
  });

  it('labor categories repeat heavily, with upper-case variants and trailing spaces', () => {
    const distinct = new Set(records.map((r) => r.labor_category));
    expect(distinct.size).toBeLessThan(records.length / 3);
    expect(records.some((r) => r.labor_category === r.labor_category.toUpperCase() && /[A-Z]{3}/.test(r.labor_category))).toBe(true);
    expect(records.some((r) => r.labor_category.endsWith(' '))).toBe(true);
  });

  it('vendors: many, each with one or more contracts', () => {
    expect(new Set(records.map((r) => r.vendor_name)).size).toBeGreaterThan(200);
    expect(new Set(records.map((r) => r.idv_piid)).size).toBeGreaterThan(new Set(records.map((r) => r.vendor_name)).size);
  });

  it('SIN strings use every separator the contract lists, and some codes carry a decimal suffix', () => {
    const sins = records.map((r) => r.sin);
    for (const sep of [',', ';', '/', ' ', '\n', ' and '])
      expect(
        sins.some((s) => s.includes(sep)),
        JSON.stringify(sep),
      ).toBe(true);
    expect(sins.some((s) => /\d\.0\b/.test(s))).toBe(true);
    expect(sins.every((s) => sinCodes(s).length > 0)).toBe(true);
  });

  it('categories are semicolon lists; dates in both forms agree; termination mostly null', () => {
    expect(records.some((r) => r.subcategory.includes(';'))).toBe(true);
    for (const r of records.slice(0, 2000)) {
      expect(r.contract_start.replace(/-/g, '')).toBe(r.cont_beg_dtg);
      expect(r.contract_end.replace(/-/g, '')).toBe(r.cont_end_dtg);
      expect(r.contract_start < r.contract_end).toBe(true);
      expect(r._timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    expect(share((r) => r.dt_termg === null)).toBeGreaterThan(0.9);
    expect(records.some((r) => r.dt_termg !== null)).toBe(true);
    expect(share((r) => r.security_clearance === null)).toBeGreaterThan(0.1);
  });
});
