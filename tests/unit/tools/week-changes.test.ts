import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyWeek, diffWeek, type SourceRecord } from '../../../tools/site-scanning-source/week-changes.ts';

const value = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 4 }), fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }));
const record = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'live', 'bureau'), value);
const week = fc.dictionary(fc.constantFrom('data/x.gov.json', 'data/y.gov.json', 'data/z.gov.json', 'data/w.gov.json'), record);

describe('a week as changes against the week after it', () => {
  it('rebuilds the older week exactly, whatever the two weeks hold', () => {
    fc.assert(
      fc.property(week, week, (newer, older) => {
        const newerMap = new Map(Object.entries(newer) as [string, SourceRecord][]);
        const olderMap = new Map(Object.entries(older) as [string, SourceRecord][]);
        const rebuilt = applyWeek(newerMap, diffWeek('2025-02-10', newerMap, olderMap));
        expect(Object.fromEntries(rebuilt)).toEqual(older);
      }),
    );
  });

  it('leaves the newer week as it was', () => {
    fc.assert(
      fc.property(week, week, (newer, older) => {
        const newerMap = new Map(Object.entries(newer) as [string, SourceRecord][]);
        const before = structuredClone(newer);
        applyWeek(newerMap, diffWeek('2025-02-10', newerMap, new Map(Object.entries(older) as [string, SourceRecord][])));
        expect(Object.fromEntries(newerMap)).toEqual(before);
      }),
    );
  });

  it('stores only the fields that differ', () => {
    const changes = diffWeek(
      '2025-02-10',
      new Map([['data/x.gov.json', { live: true, bureau: 'GSA' }]]),
      new Map([['data/x.gov.json', { live: false, bureau: 'GSA' }]]),
    );
    expect(changes.changed).toEqual([{ path: 'data/x.gov.json', set: { live: false } }]);
    expect(changes.added).toEqual([]);
    expect(changes.absent).toEqual([]);
  });
});
