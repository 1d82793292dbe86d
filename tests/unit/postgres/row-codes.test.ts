/**
 * The rates' codes as a search returns them (adapters/node/postgres/row-codes.ts): read once, each rate once,
 * its places in id order, and a page picked in price or id order, against a plain sort of the same rates.
 */
import { describe, expect, it } from 'vitest';
import { pageOf, placesOf, rowCodes, rowCodesOf, smallest } from '../../../adapters/node/postgres/row-codes.ts';

interface Rate {
  place: number;
  id: number;
  priceRank: number | null;
  combo: number;
  labor: number;
}

/** A seeded generator, so a failure names rates that can be made again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** `count` rates of a store of `records` (distinct places, ids rising with the place), `ranks` price ranks. */
function ratesOf(seed: number, count: number, records: number, ranks: number): Rate[] {
  const next = random(seed);
  const places = new Set<number>();
  while (places.size < count) places.add(Math.floor(next() * records));
  return [...places].map((place) => ({
    place,
    id: 1_000_000_000_000 + place * 3,
    priceRank: next() < 0.1 ? null : Math.floor(next() * ranks),
    combo: Math.floor(next() * 50),
    labor: Math.floor(next() * 70),
  }));
}

const bytesOf = (rates: readonly Rate[]): Uint8Array =>
  Buffer.concat(rates.map((r) => Buffer.from(rowCodes(r.combo, r.priceRank, r.labor, r.place, r.id).slice(2), 'hex')));

/** The page by a plain sort: price rank (none last either way), then place (id order). */
function sortedPage(rates: readonly Rate[], order: { desc: boolean } | null, offset: number, size: number): number[] {
  const key = (r: Rate): number => (order === null || r.priceRank === null ? (order === null ? 0 : Infinity) : order.desc ? -r.priceRank : r.priceRank);
  return [...rates]
    .sort((a, b) => key(a) - key(b) || a.place - b.place)
    .slice(offset, offset + size)
    .map((r) => r.id);
}

describe('a search’s rate codes', () => {
  const records = 5_000;
  const ranks = 40;
  const rates = ratesOf(7, 1_200, records, ranks);

  it('reads each rate once, however often a keyword’s parts sent it', () => {
    const twice = [...rates, ...rates.slice(0, 300), ...rates.slice(100, 150)];
    const rows = rowCodesOf(bytesOf(twice), records);
    expect(rows.n).toBe(rates.length);
    expect(Array.from(rows.place.subarray(0, rows.n))).toEqual(rates.map((r) => r.place));
    expect(Array.from(rows.price.subarray(0, rows.n))).toEqual(rates.map((r) => r.priceRank ?? -1));
    expect(Array.from(rows.labor.subarray(0, rows.n))).toEqual(rates.map((r) => r.labor));
  });

  it('gives the priced rates’ places in id order', () => {
    const rows = rowCodesOf(bytesOf(rates), records);
    const expected = rates
      .filter((r) => r.priceRank !== null)
      .map((r) => r.place)
      .sort((a, b) => a - b);
    expect(Array.from(placesOf(rows, records))).toEqual(expected);
  });

  it.each([
    ['price ascending, first page', { desc: false }, 0, 20],
    ['price descending, first page', { desc: true }, 0, 20],
    ['price ascending, a page among the unpriced', { desc: false }, 1_150, 30],
    ['price descending, the last page, cut short', { desc: true }, 1_190, 50],
    ['price ascending, a deep page', { desc: false }, 600, 100],
    ['id order', null, 40, 25],
  ] as const)('picks the page in %s as a sort does', (_, order, offset, size) => {
    const rows = rowCodesOf(bytesOf(rates), records);
    expect(pageOf(rows, order, offset, size, ranks, records)).toEqual(sortedPage(rates, order, offset, size));
  });

  it('has no page past the last rate', () => {
    expect(pageOf(rowCodesOf(bytesOf(rates), records), { desc: false }, rates.length, 20, ranks, records)).toEqual([]);
    expect(pageOf(rowCodesOf(null, records), { desc: false }, 0, 20, ranks, records)).toEqual([]);
  });

  it('selects the k smallest keys in order, sorted runs and repeats included', () => {
    const next = random(3);
    const cases = [
      Float64Array.from({ length: 2_000 }, () => Math.floor(next() * 1e6)),
      Float64Array.from({ length: 2_000 }, (_, i) => i),
      Float64Array.from({ length: 2_000 }, (_, i) => 2_000 - i),
      Float64Array.from({ length: 2_000 }, () => Math.floor(next() * 5)),
    ];
    for (const keys of cases) {
      const expected = Array.from(keys).sort((a, b) => a - b);
      for (const k of [1, 17, 500, 1_999, 2_000]) expect(Array.from(smallest(keys.slice(), k))).toEqual(expected.slice(0, k));
    }
  });
});
