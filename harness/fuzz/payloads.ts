/**
 * Hostile query-string material, shared by the exhaustive sweep (every known parameter × every payload) and
 * the random properties. Two kinds: `VALUES` are texts the engine should see exactly (sent percent-encoded),
 * `RAW` are fragments put into the URL verbatim because their point is how the URL itself is written
 * (broken percent escapes, `+`, separators that split the query).
 */
import fc from 'fast-check';

/** 10,000 characters: a "very long value". */
export const LONG = 10_000;

const NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '-5',
  '0.5',
  '1.5',
  '-0.5',
  '2.999999999999999999',
  '1e3',
  '1e308',
  '1e309',
  '-1e309',
  '1e-400',
  '5e-324',
  '1.7976931348623157e308',
  'NaN',
  '-NaN',
  'Infinity',
  '-Infinity',
  '+Infinity',
  '0x10',
  '0b11',
  '0o7',
  '1_000',
  '١٢',
  '５',
  '9007199254740993',
  '99999999999999999999999999',
  '-99999999999999999999',
  ' 7 ',
  '007',
  '1,2',
  '1,2,3',
  ',',
  '1,',
  ',1',
  'NaN,NaN',
  '1e309,1',
  '-1,-1',
  '5,1',
  '0,1e308',
];

const WORDS = [
  '',
  ' ',
  '   ',
  '\t',
  '\n',
  'true',
  'false',
  'TRUE',
  'yes',
  'null',
  'undefined',
  '[]',
  '{}',
  '[object Object]',
  'asc',
  'desc',
  'DESC',
  'y',
  'Y',
  'n',
  'completed',
  'gsa.gov',
  'https://gsa.gov/',
  'current_price',
];

/** Names every plain object inherits: a lookup with `in` or `obj[name]` finds these. */
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__'];

const UNICODE = [
  '\uD800',
  '\uDFFF',
  'x\uD800y',
  '\uDBFF\uDFFF',
  '\uDFFF\uD800',
  '\u202E',
  '\u202Egsa.gov',
  '\u202Dabc\u202C',
  '\u200F\u200E',
  '\u200B',
  '\u200D',
  '\uFEFF',
  '\u2028\u2029',
  '\u0000',
  '\u0001\u001F\u007F',
  '\u0085',
  '😀',
  '👩‍👩‍👧',
  'é',
  'e\u0301',
  'İ',
  'ß',
  'Σ',
  'ﬃ',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'ｇｓａ．ｇｏｖ',
  'عربى',
  'עברית',
  '中文',
  '\uFFFD',
  '\uFFFF',
];

const SQL = [
  "' OR 1=1 --",
  "' OR '1'='1",
  '" OR ""="',
  '1; DROP TABLE websites;--',
  '1; DROP TABLE ceilingrates;--',
  "') UNION SELECT name FROM sqlite_master--",
  "1' AND sleep(5)--",
  '%',
  '_',
  '%_%',
  '\\',
  "'",
  '"',
  '`',
  ';',
  '--',
  '/*',
  '*/',
  'NULL',
  '?1',
  '?',
  ':name',
  '$1',
  "x' || 'y",
];

const MARKUP = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  "=cmd|' /C calc'!A0",
  '+1+1',
  '-1+1',
  '@SUM(A1:A2)',
  '|x',
  '{{7*7}}',
  '${7*7}',
];

/** Texts with the API's own separators in them (`:` field, `|` alternatives, `,` range, `and` in SIN). */
const SEPARATORS = [':', '::', '|', '||', 'a|b', '|a|', ',', ',,', 'a,b', '/', '//', '..', '../..', '\\..', 'and', ' and '];

const LONG_VALUES = [
  'a'.repeat(LONG),
  '9'.repeat(LONG),
  'é'.repeat(LONG),
  '|'.repeat(LONG),
  ','.repeat(LONG),
  ':'.repeat(LONG),
  'x '.repeat(LONG / 2),
  '\u202E'.repeat(LONG),
  'and '.repeat(LONG / 4),
  '😀'.repeat(LONG / 2),
  '1,'.repeat(LONG / 2),
];

/** Texts sent percent-encoded, so the engine's parameter sees them exactly (lone surrogates aside). */
export const VALUES: readonly string[] = [...NUMBERS, ...WORDS, ...PROTOTYPE_NAMES, ...UNICODE, ...SQL, ...MARKUP, ...SEPARATORS, ...LONG_VALUES];

/** Fragments written into the URL as they are. */
export const RAW: readonly string[] = [
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%ED%A0%80',
  '%FF',
  '%00',
  '%2',
  '%u0041',
  '%252F',
  '%0A',
  '%0D%0A',
  '%F0%9F%98',
  '%EF%BB%BF',
  '+',
  '++',
  'a+b',
  '%2B',
  '&',
  '&&',
  '=',
  '==',
  'a=b=c',
  '#frag',
  '?',
  '??',
  '%23',
  '%26',
  '%3D',
  ';',
  '%'.repeat(LONG),
  '%zz'.repeat(LONG / 3),
];

/** How many distinct payloads the sweep sends for every parameter. */
export const PAYLOAD_COUNT = VALUES.length + RAW.length;

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) goes into the URL as it is: the
 * URL parser then writes it as U+FFFD, which is also a case worth sending.
 */
export function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

/** One payload ready for the URL: either kind. */
export const payloadInUrl: readonly string[] = [...VALUES.map(encode), ...RAW];

/** A value for a random property: a listed payload, or generated text of any kind. */
export function valueArb(known: readonly string[] = []): fc.Arbitrary<string> {
  const listed = fc.constantFrom(...VALUES);
  const generated = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.string({ unit: 'binary-ascii', maxLength: 20 }),
    fc.double().map(String),
    fc.integer().map(String),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  );
  const arbs: fc.WeightedArbitrary<string>[] = [
    { arbitrary: listed, weight: 3 },
    { arbitrary: generated, weight: 3 },
  ];
  if (known.length > 0) arbs.push({ arbitrary: fc.constantFrom(...known), weight: 2 });
  return fc.oneof(...arbs);
}

/** A value as written in the URL: encoded text, or a raw fragment, or text with a broken escape spliced in. */
export function valueInUrlArb(known: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: valueArb(known).map(encode), weight: 6 },
    { arbitrary: fc.constantFrom(...RAW), weight: 2 },
    { arbitrary: fc.tuple(valueArb(known), fc.constantFrom(...RAW)).map(([v, raw]) => `${encode(v)}${raw}`), weight: 1 },
    // Unencoded: whatever the URL parser makes of it.
    { arbitrary: valueArb(known), weight: 1 },
  );
}
