/** String rules of the ceiling-rates API (the API reference, "Matching" and "Order and paging"). */

/**
 * Byte order of the UTF-8 encodings, which is code point order. JS `<` compares UTF-16 code units, which
 * differs for astral characters against U+E000–U+FFFF, so compare code points.
 */
export function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only when both are in the surrogate-or-above range can code unit order disagree with code point order.
    if (x >= 0xd800 && y >= 0xd800) {
      const cx = a.codePointAt(i)!;
      const cy = b.codePointAt(i)!;
      return cx < cy ? -1 : cx > cy ? 1 : 0;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** Case-insensitive comparison form for search, keyword and suggestions. */
export const fold = (s: string): string => s.toLowerCase();

/** A SIN code without its decimal suffix (`874-1.0` → `874-1`): the suffix is ignored on both sides. */
export const normalizeSinCode = (code: string): string => code.replace(/\.\d+$/, '');

/** The codes of a free-form SIN text: split on comma, semicolon, slash, whitespace and the word `and`. */
export function sinCodes(sin: string): string[] {
  return sin
    .split(/[,;/\s]+/)
    .filter((token) => token !== '' && token.toLowerCase() !== 'and')
    .map(normalizeSinCode);
}

/** Elements of a semicolon-separated list, trimmed (real lists carry a space after the semicolon). */
export function listElements(list: string): string[] {
  return list
    .split(';')
    .map((e) => e.trim())
    .filter((e) => e !== '');
}

/** Lower-case words of a worksite value (`Customer Facility` → customer, facility). */
export function words(value: string): string[] {
  return value
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** True when the words of `phrase` occur consecutively among the words of `value`. */
export function containsWords(value: string, phrase: string): boolean {
  const have = words(value);
  const want = words(phrase);
  if (want.length === 0) return false;
  outer: for (let i = 0; i + want.length <= have.length; i++) {
    for (let j = 0; j < want.length; j++) if (have[i + j] !== want[j]) continue outer;
    return true;
  }
  return false;
}

const CLEARANCE_YES = new Set(['yes', 'true']);
const CLEARANCE_NO = new Set(['no', 'none', 'n/a', 'false']);

/** The `security_clearance` filter class of a stored value: yes, no, or neither (As Required, null). */
export function clearanceClass(value: string | null): 'yes' | 'no' | null {
  if (value === null) return null;
  const v = value.trim().toLowerCase();
  if (CLEARANCE_YES.has(v)) return 'yes';
  if (CLEARANCE_NO.has(v)) return 'no';
  return null;
}

/** The term key of a price: two decimals (the contract: `"27.00"`). */
export const priceKey = (price: number): string => price.toFixed(2);

/** The codes `education_level_counts` buckets, in byte order (NONE and OTHER are not among them). */
export const EDUCATION_COUNT_CODES = ['AA', 'BA', 'HS', 'MA', 'PHD', 'TEC'] as const;

/**
 * A stored education level as `education_level_counts` counts it: trimmed and upper-cased; null when that is
 * not one of EDUCATION_COUNT_CODES. Spelled-out levels (`Bachelor's`) are mapped to codes when a price list is
 * imported, so what is left unmapped here would not map there either.
 */
export function educationCountCode(value: string | null): (typeof EDUCATION_COUNT_CODES)[number] | null {
  if (value === null) return null;
  const code = value.trim().toUpperCase();
  return (EDUCATION_COUNT_CODES as readonly string[]).includes(code) ? (code as (typeof EDUCATION_COUNT_CODES)[number]) : null;
}
