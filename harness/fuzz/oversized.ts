/**
 * Requests far beyond what a client sends: thousands of repeats, alternatives and ids, very long values and
 * paths. The reproducers are the cases once found slow; the arbitrary mixes such sizes into fuzzing.
 */
import fc from 'fast-check';
import { ORDER_FIELDS } from './requests.ts';

const RATES = '/api/v3/search/ceilingrates/';
const repeat = (n: number, piece: (i: number) => string, join = '&'): string => Array.from({ length: n }, (_, i) => piece(i)).join(join);

export interface Reproducer {
  name: string;
  url: string;
}

export const REPRODUCERS: readonly Reproducer[] = [
  { name: 'ordering=business_size × 1,000', url: `${RATES}?${repeat(1000, () => 'ordering=business_size')}` },
  { name: 'ordering × 1,000, cycling through the fields', url: `${RATES}?${repeat(1000, (i) => `ordering=${ORDER_FIELDS[i % ORDER_FIELDS.length]}`)}` },
  { name: 'current_price with 400 values', url: `${RATES}?filter=current_price:${repeat(400, (i) => String(10 + i), '|')}` },
  { name: 'current_price with 10,000 values', url: `${RATES}?filter=current_price:${repeat(10_000, (i) => String(10 + i / 100), '|')}` },
  { name: 'price_range with 10,000 ranges', url: `${RATES}?filter=price_range:${repeat(10_000, (i) => `${i},${i + 0.5}`, '|')}` },
  { name: 'exclude with 10,000 ids', url: `${RATES}?exclude=${repeat(10_000, (i) => String(i + 1), '|')}` },
  { name: '1,000 filters', url: `${RATES}?${repeat(1000, (i) => (i % 2 === 0 ? `filter=price_range:${i % 50},1000` : `filter=site:customer`))}` },
  { name: '100 KB keyword', url: `${RATES}?keyword=${'ab'.repeat(50_000)}` },
  { name: '1,000 unknown parameters', url: `${RATES}?${repeat(1000, (i) => `p${i}=${i}`)}` },
  { name: '100 KB path (/websites/{url})', url: `/websites/${'a'.repeat(100_000)}.gov` },
  { name: '100 KB path (ceiling rates)', url: `${RATES}${'a/'.repeat(50_000)}` },
  { name: 'Site Scanning page 1e21', url: '/websites?page=1e21' },
  // Last: before the limits this one overflowed the stack after seconds and gigabytes.
  { name: 'ordering=business_size × 5,000', url: `${RATES}?${repeat(5000, () => 'ordering=business_size')}` },
];

/** One oversized request: a repeated parameter, a long alternative list, a long value or a long path. */
export function oversizedRequestArb(): fc.Arbitrary<string> {
  const count = fc.integer({ min: 50, max: 3000 });
  const field = fc.constantFrom(...ORDER_FIELDS);
  return fc.oneof(
    fc.tuple(count, field).map(([n, f]) => `${RATES}?${repeat(n, () => `ordering=${f}&sort=desc`)}`),
    count.map((n) => `${RATES}?filter=current_price:${repeat(n, (i) => String(20 + i / 10), '|')}`),
    count.map((n) => `${RATES}?filter=price_range:${repeat(n, (i) => `${i},${i + 1}`, '|')}`),
    count.map((n) => `${RATES}?filter=experience_range:${repeat(n, (i) => `${i % 30},${(i % 30) + 1}`, '|')}`),
    count.map((n) => `${RATES}?filter=sin:${repeat(n, (i) => `5415${i}S`, '|')}`),
    count.map((n) => `${RATES}?exclude=${repeat(n, (i) => String(i * 7), '|')}`),
    count.map((n) => `${RATES}?${repeat(n, (i) => `filter=price_range:${i},${i + 500}`)}`),
    count.map((n) => `${RATES}?${repeat(n, (i) => `search=vendor_name:v${i}`)}`),
    count.map((n) => `${RATES}?${repeat(n, (i) => `suggest=vendor_name:a${i}`)}`),
    count.map((n) => `${RATES}?keyword=${'en'.repeat(n)}`),
    count.map((n) => `${RATES}?${repeat(n, (i) => `x${i}=${i}`)}`),
    count.map((n) => `/websites?${repeat(n, (i) => `target_url_agency_owner=${i}`)}`),
    count.map((n) => `/websites?target_url_agency_owner=${'a'.repeat(n * 10)}`),
    count.map((n) => `/websites/${'a'.repeat(n * 10)}.gov`),
    fc.constantFrom('/websites?page=1e21', '/websites?page=1e300', '/websites?page=9007199254740993', '/websites?page=123456789012&limit=100'),
  );
}
