/**
 * The folded forms keyword and suggestions compare against: folded as one text, they must equal each value
 * lower-cased on its own, and their UTF-8 form must have the right boundaries, whatever the values hold.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { foldedText, ValueForms } from '../../../engine/ceilingrates/query/value-forms.ts';
import type { ColumnStore } from '../../../engine/ceilingrates/columns/store.ts';

/** A store with one text field: ValueForms reads only the distinct values. */
function formsOver(values: (string | null)[]): ValueForms {
  return new ValueForms({ text: { labor_category: { values } } } as unknown as ColumnStore);
}

function expectFoldedValueByValue(values: (string | null)[]): void {
  const forms = formsOver(values);
  const expected = values.map((v) => (v === null ? '' : v.toLowerCase()));
  expect(forms.folded.get('labor_category')).toEqual(expected);
  // The UTF-8 form the keyword kernel searches: each value's bytes at its start, NUL between values.
  const { bytes, starts } = foldedText(forms.folded.get('labor_category'));
  const utf8 = new TextEncoder();
  expect(starts.length).toBe(values.length + 1);
  expected.forEach((v, i) => {
    const encoded = utf8.encode(v);
    expect([...bytes.subarray(starts[i], starts[i] + encoded.length)]).toEqual([...encoded]);
    expect(starts[i + 1]).toBe(starts[i] + encoded.length + 1);
    if (i + 1 < expected.length) expect(bytes[starts[i + 1] - 1]).toBe(0);
  });
  expect(bytes.length).toBe(Math.max(0, starts[values.length] - 1));
}

describe('ValueForms', () => {
  it('folds like lower-casing each value: final sigma, length-changing letters, nulls, empty strings', () => {
    expectFoldedValueByValue(['ΟΔΟΣ', 'ΣΑ', 'Σ', 'İstanbul Engineer', null, '', 'ß Straße', 'Senior ENGINEER', '🚀 Rocket']);
  });

  it('keeps the boundaries when a value holds NUL itself', () => {
    expectFoldedValueByValue(['A\u0000B', 'Engineer', null, '\u0000']);
  });

  it('handles no values and one value', () => {
    expectFoldedValueByValue([]);
    expectFoldedValueByValue(['Only ONE']);
    expectFoldedValueByValue([null]);
  });

  it('agrees with value-by-value folding for any strings', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.string({ unit: 'grapheme-composite' }), { nil: null }), { maxLength: 20 }), (values) => {
        expectFoldedValueByValue(values);
      }),
    );
  });
});
