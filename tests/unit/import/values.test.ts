import { describe, expect, it } from 'vitest';
import { boolean, integer, leadingInteger, list, number, stringObject, text } from '../../../dataset/import/values.ts';
import { calendarDate, fullYear } from '../../../dataset/import/dates.ts';
import { businessSizeCode, clearanceName, educationCode, worksiteName } from '../../../dataset/import/ceilingrates/codes.ts';
import type { ValueNotes } from '../../../dataset/import/report.ts';

function recorder(): ValueNotes & { kinds: string[] } {
  const kinds: string[] = [];
  return { kinds, note: (_field, kind, outcome) => kinds.push(`${kind}:${outcome}`) };
}

describe('cell values', () => {
  it('booleans in every spelling the files use; anything else is null and noted', () => {
    const notes = recorder();
    expect(['true', 'True', 'TRUE', '1', '1.0', true].map((v) => boolean(v, 'f', notes))).toEqual([true, true, true, true, true, true]);
    expect(['false', 'False', 'FALSE', '0', '0.0', false].map((v) => boolean(v, 'f', notes))).toEqual([false, false, false, false, false, false]);
    expect([' ', '', null, undefined].map((v) => boolean(v, 'f', notes))).toEqual([null, null, null, null]);
    expect(boolean('yes please', 'f', notes)).toBeNull();
    expect(notes.kinds.at(-1)).toBe('not a boolean:set-to-null');
  });

  it('numbers with $, thousands separators and spaces; whole numbers from 200.0', () => {
    const notes = recorder();
    expect(number('$1,234.50', 'p', notes)).toBe(1234.5);
    expect(number('1,013.38', 'p', notes)).toBe(1013.38);
    expect(number('1,234,567', 'p', notes)).toBe(1234567);
    expect(number('$98.24 ', 'p', notes)).toBe(98.24);
    // oxlint-disable-next-line no-loss-of-precision -- the literal is the input as written
    expect(number('12.340000000000001', 'p', notes)).toBe(12.340000000000001);
    expect(number('0.75%', 'p', notes)).toBeNull();
    expect(number('1,23', 'p', notes)).toBeNull();
    expect(integer('200.0', 'n', notes)).toBe(200);
    expect(integer('200', 'n', notes)).toBe(200);
    expect(integer('12.5', 'n', notes)).toBeNull();
    expect(integer(404, 'n', notes)).toBe(404);
  });

  it('lists: JSON text, Python text, comma text, arrays; empty is null', () => {
    const notes = recorder();
    expect(list('["gov","dap"]', 'l', notes)).toEqual(['gov', 'dap']);
    expect(list("['gov', 'it''s']".replace("''", "\\'"), 'l', notes)).toEqual(['gov', "it's"]);
    expect(list('usa-banner, usa-header', 'l', notes)).toEqual(['usa-banner', 'usa-header']);
    expect(list(['a', 1], 'l', notes)).toEqual(['a', '1']);
    expect(list('[]', 'l', notes)).toBeNull();
    expect(list([], 'l', notes)).toBeNull();
    expect(list('', 'l', notes)).toBeNull();
    expect(list('[unclosed', 'l', notes)).toBeNull();
    expect(notes.kinds).toContain('unreadable list text:set-to-null');
  });

  it('objects from JSON text; values as strings', () => {
    const notes = recorder();
    expect(stringObject('{"agency":"ABMC","v":2}', 'o', notes)).toEqual({ agency: 'ABMC', v: '2' });
    expect(stringObject({ agency: 'GSA' }, 'o', notes)).toEqual({ agency: 'GSA' });
    expect(stringObject('agency=ABMC', 'o', notes)).toBeNull();
    expect(stringObject('[1]', 'o', notes)).toBeNull();
  });

  it('text keeps its own spaces; blank is null', () => {
    expect(text('Program Manager ')).toBe('Program Manager ');
    expect(text('  ')).toBeNull();
    expect(text(3)).toBe('3');
  });

  it('experience from words and units', () => {
    const notes = recorder();
    expect(['5', '2 Years', '4 yrs', 'Five (5) years', '1-3 years', '10.0'].map((v) => leadingInteger(v, 'x', notes))).toEqual([5, 2, 4, 5, 1, 10]);
    expect(leadingInteger('N/A', 'x', notes)).toBeNull();
  });
});

describe('dates', () => {
  it.each([
    ['2020-01-05', '2020-01-05', '20200105'],
    ['1/5/2020', '2020-01-05', '20200105'],
    ['12/31/2019', '2019-12-31', '20191231'],
    ['5/5/15', '2015-05-05', '20150505'],
    ['10/20/99', '1999-10-20', '19991020'],
    ['20240101', '2024-01-01', '20240101'],
    ['2/29/2020', '2020-02-29', '20200229'],
    ['2019-07-01T00:00:00Z', '2019-07-01', '20190701'],
  ])('%s → %s / %s', (input, iso, compact) => {
    expect(calendarDate(input)).toMatchObject({ iso, compact });
  });

  it.each(['13/45/2021', '2/29/2021', 'soon', '2021-13-01'])('%s is not a date', (input) => {
    expect(calendarDate(input)).toBeNull();
  });

  it('two-digit years pivot at 69', () => {
    expect([fullYear(0), fullYear(68), fullYear(69), fullYear(99)]).toEqual([2000, 2068, 1969, 1999]);
  });
});

describe('ceiling-rate codes', () => {
  it.each([
    ['Bachelors', 'BA'],
    ["Bachelor's Degree", 'BA'],
    ['Bachelor\ufffds', 'BA'],
    ['B.A. or B.S.', 'BA'],
    ['BS - CS, CIS, EE, Telecom', 'BA'],
    ['Masters', 'MA'],
    ['M.S. or B.S.', 'MA'],
    ['MBA', 'MA'],
    ['High School', 'HS'],
    ['HS Diploma or Equivalent', 'HS'],
    ['Associates', 'AA'],
    ['A.A. or A.S.', 'AA'],
    ['2 yr degree', 'AA'],
    ['Ph.D.', 'PHD'],
    ['PhD', 'PHD'],
    ['Doctor of Medicine', 'PHD'],
    ['None', 'NONE'],
    ['N/A', 'NONE'],
    ['Other', 'OTHER'],
    ['BA', 'BA'],
    ['phd', 'PHD'],
    ["Bachelor's degree. May substitute with 1 year of experience and an Associates degree.", 'BA'],
  ])('education %s → %s', (input, code) => {
    expect(educationCode(input)).toBe(code);
  });

  it('unknown education texts are not guessed', () => {
    expect(educationCode('Professional Certification')).toBeNull();
    expect(educationCode('Carries industry certifications, such as ASQ')).toBeNull();
  });

  it('business size, worksite and clearance spellings', () => {
    expect(['S', 's', 'small business', 'O', 'other than small business', 'big'].map(businessSizeCode)).toEqual(['S', 'S', 'S', 'O', 'O', null]);
    expect(['customer', 'Customer  Site', 'N/A', 'both', 'Offsite'].map(worksiteName)).toEqual(['Customer', 'Customer Site', 'None', 'Both', null]);
    expect(['yes', 'NO', 'as required', 'N/A', 'Secret'].map(clearanceName)).toEqual(['Yes', 'No', 'As Required', 'None', null]);
  });
});
