/**
 * The request-time loops over every row or every distinct value, in AssemblyScript, compiled to WebAssembly
 * (`npm run build:kernels` writes ../kernels-wasm.ts). They arrive compiled: the first request after a bind
 * runs them at near their steady speed, where the same loops in JavaScript start in the interpreter and
 * cost several times their optimised time until the JIT catches up (decision 0407).
 *
 * Every argument is a byte address in the one linear memory the caller allocated (../kernels.ts); the
 * kernels allocate nothing. Layouts are the engine's typed arrays': u8 masks, u32 codes and counts, f64 prices.
 */

function u32At(base: usize, i: u32): u32 {
  return load<u32>(base + ((<usize>i) << 2));
}

function bump(base: usize, i: u32, by: u32): void {
  const at = base + ((<usize>i) << 2);
  store<u32>(at, load<u32>(at) + by);
}

/**
 * Counts a 0/1 mask of `n` rows and lists the smaller side into `out`: the matching rows when they are at most
 * half, otherwise the others. Returns the count; the listed side is the matches exactly when count * 2 <= n.
 * Words of four rows that hold none of the listed side are skipped; within a word the write is branch-free.
 */
export function listMask(mask: usize, n: u32, out: usize): u32 {
  const words = n >>> 2;
  let count: u32 = 0;
  for (let w: u32 = 0; w < words; w++) count += (load<u32>(mask + ((<usize>w) << 2)) * 0x01010101) >>> 24;
  for (let r: u32 = words << 2; r < n; r++) count += load<u8>(mask + r);
  const want: u32 = count * 2 <= n ? 1 : 0;
  const none: u32 = want == 1 ? 0 : 0x01010101;
  const flip: u32 = want ^ 1;
  let k: u32 = 0;
  for (let w: u32 = 0; w < words; w++) {
    if (load<u32>(mask + ((<usize>w) << 2)) == none) continue;
    const r = w << 2;
    const at = mask + r;
    store<u32>(out + ((<usize>k) << 2), r);
    k += load<u8>(at) ^ flip;
    store<u32>(out + ((<usize>k) << 2), r + 1);
    k += load<u8>(at, 1) ^ flip;
    store<u32>(out + ((<usize>k) << 2), r + 2);
    k += load<u8>(at, 2) ^ flip;
    store<u32>(out + ((<usize>k) << 2), r + 3);
    k += load<u8>(at, 3) ^ flip;
  }
  for (let r: u32 = words << 2; r < n; r++) {
    if (load<u8>(mask + r) == want) {
      store<u32>(out + ((<usize>k) << 2), r);
      k++;
    }
  }
  return count;
}

/**
 * Sets the mask of every row in the groups of the allowed codes: code c's rows are
 * perm[groupStart[rank[c]] .. groupStart[rank[c] + 1]).
 */
export function markGroups(mask: usize, perm: usize, groupStart: usize, rank: usize, allowed: usize, codes: u32): void {
  for (let c: u32 = 0; c < codes; c++) {
    if (load<u8>(allowed + c) == 0) continue;
    const g = u32At(rank, c);
    const end = u32At(groupStart, g + 1);
    for (let i = u32At(groupStart, g); i < end; i++) store<u8>(mask + u32At(perm, i), 1);
  }
}

/** The records in the groups of the allowed codes: the sum of their groups' sizes. */
export function groupsSize(groupStart: usize, rank: usize, allowed: usize, codes: u32): u32 {
  let total: u32 = 0;
  for (let c: u32 = 0; c < codes; c++) {
    if (load<u8>(allowed + c) == 0) continue;
    const g = u32At(rank, c);
    total += u32At(groupStart, g + 1) - u32At(groupStart, g);
  }
  return total;
}

/**
 * Counts listed rows: per row, its labor category, combination and price rank (three u32 per row in `packed`),
 * and the plain sums of its non-null prices, in row order, into sums[0] and sums[1].
 */
export function countRows(rows: usize, n: u32, packed: usize, prices: usize, labor: usize, combos: usize, ranks: usize, sums: usize): void {
  let sum: f64 = 0;
  let squares: f64 = 0;
  for (let i: u32 = 0; i < n; i++) {
    const row = u32At(rows, i);
    const at = packed + <usize>row * 12;
    bump(labor, load<u32>(at), 1);
    bump(combos, load<u32>(at, 4), 1);
    bump(ranks, load<u32>(at, 8), 1);
    const v = load<f64>(prices + ((<usize>row) << 3));
    if (v == v) {
      sum += v;
      squares += v * v;
    }
  }
  store<f64>(sums, sum);
  store<f64>(sums, squares, 8);
}

/** Adds each combination's count to its five fields' counts (`fieldCodes`: five codes per combination). */
export function splitCombos(combos: usize, n: u32, fieldCodes: usize, f0: usize, f1: usize, f2: usize, f3: usize, f4: usize): void {
  for (let c: u32 = 0; c < n; c++) {
    const count = u32At(combos, c);
    if (count == 0) continue;
    const at = fieldCodes + <usize>c * 20;
    bump(f0, load<u32>(at), count);
    bump(f1, load<u32>(at, 4), count);
    bump(f2, load<u32>(at, 8), count);
    bump(f3, load<u32>(at, 12), count);
    bump(f4, load<u32>(at, 16), count);
  }
}

/** Counts listed rows' labor category, price rank and five combination fields, one row at a time. */
export function countRowFields(
  rows: usize,
  n: u32,
  packed: usize,
  fieldCodes: usize,
  labor: usize,
  ranks: usize,
  f0: usize,
  f1: usize,
  f2: usize,
  f3: usize,
  f4: usize,
): void {
  for (let i: u32 = 0; i < n; i++) {
    const at = packed + <usize>u32At(rows, i) * 12;
    bump(labor, load<u32>(at), 1);
    bump(ranks, load<u32>(at, 8), 1);
    const c = fieldCodes + <usize>load<u32>(at, 4) * 20;
    bump(f0, load<u32>(c), 1);
    bump(f1, load<u32>(c, 4), 1);
    bump(f2, load<u32>(c, 8), 1);
    bump(f3, load<u32>(c, 12), 1);
    bump(f4, load<u32>(c, 16), 1);
  }
}

/** part[i] = total[i] - part[i]: the counts of everything but the part. */
export function subtractFrom(total: usize, part: usize, n: u32): void {
  for (let i: u32 = 0; i < n; i++) store<u32>(part + ((<usize>i) << 2), u32At(total, i) - u32At(part, i));
}

/**
 * Every price rank with a count, ascending: its price into values, its count into counts, the records before
 * the next into cumulative (cumulative[0] = 0), and its count added to its price term key's count. Returns how
 * many ranks had a count.
 */
export function countRanks(ranks: usize, distinct: usize, keyOf: usize, n: u32, values: usize, counts: usize, cumulative: usize, keyCounts: usize): u32 {
  let m: u32 = 0;
  let running: f64 = 0;
  store<f64>(cumulative, 0);
  for (let rank: u32 = 0; rank < n; rank++) {
    const c = u32At(ranks, rank);
    if (c == 0) continue;
    store<f64>(values + ((<usize>m) << 3), load<f64>(distinct + ((<usize>rank) << 3)));
    store<f64>(counts + ((<usize>m) << 3), <f64>c);
    m++;
    running += <f64>c;
    store<f64>(cumulative + ((<usize>m) << 3), running);
    bump(keyCounts, u32At(keyOf, rank), c);
  }
  return m;
}

/**
 * The `size` codes with the most records, by count descending then key rank ascending, into `top`; the null
 * value's code (`nullCode`, or -1) and zero counts are no bucket. Codes are 0..n-1. Returns how many were taken;
 * the records of every bucket go to total[0] (f64).
 */
export function topTerms(counts: usize, rank: usize, nullCode: i32, n: u32, size: u32, top: usize, total: usize): u32 {
  let taken: u32 = 0;
  let all: f64 = 0;
  let lastCount: u32 = 0;
  let lastRank: u32 = 0;
  for (let code: u32 = 0; code < n; code++) {
    const c = u32At(counts, code);
    if (c == 0 || <i32>code == nullCode) continue;
    all += <f64>c;
    const r = u32At(rank, code);
    if (taken == size && (c < lastCount || (c == lastCount && r > lastRank))) continue;
    let lo: u32 = 0;
    let hi: u32 = taken;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = u32At(top, mid);
      const b = u32At(counts, other);
      if (b > c || (b == c && u32At(rank, other) < r)) lo = mid + 1;
      else hi = mid;
    }
    const moved = (taken < size ? taken : size - 1) - lo;
    memory.copy(top + ((<usize>(lo + 1)) << 2), top + ((<usize>lo) << 2), (<usize>moved) << 2);
    store<u32>(top + ((<usize>lo) << 2), code);
    if (taken < size) taken++;
    if (taken == size) {
      lastCount = u32At(counts, u32At(top, size - 1));
      lastRank = u32At(rank, u32At(top, size - 1));
    }
  }
  store<f64>(total, all);
  return taken;
}

/**
 * Marks the values that contain the needle: `text` is the field's folded values as UTF-8, NUL between them, and
 * value c starts at byte starts[c] (starts[n] is one past the text's end). A needle without NUL matches within
 * one value, and UTF-8 preserves substrings of valid text. Knuth-Morris-Pratt (its table in `fail`, the
 * needle's length in u32), so the cost is linear in the text and the needle whatever they hold; after a hit the
 * search goes on at the next value. An empty needle is in every value.
 */
export function markContaining(text: usize, textLength: u32, starts: usize, n: u32, needle: usize, m: u32, fail: usize, allowed: usize): void {
  if (m == 0) {
    memory.fill(allowed, 1, n);
    return;
  }
  store<u32>(fail, 0);
  let k: u32 = 0;
  for (let i: u32 = 1; i < m; i++) {
    const c = load<u8>(needle + i);
    while (k > 0 && c != load<u8>(needle + k)) k = u32At(fail, k - 1);
    if (c == load<u8>(needle + k)) k++;
    store<u32>(fail + ((<usize>i) << 2), k);
  }
  // Candidates for a match's start: where the needle's first byte is, and its second one after it (far rarer).
  const firsts = i8x16.splat(<i8>load<u8>(needle));
  const seconds = i8x16.splat(<i8>load<u8>(needle + (m > 1 ? 1 : 0)));
  let j: u32 = 0;
  let i: u32 = 0;
  while (i < textLength) {
    if (j == 0) {
      // Nothing matched yet: skip to the next candidate, sixteen bytes at a time.
      while (i + 17 <= textLength) {
        let hits = i8x16.eq(v128.load(text + i), firsts);
        if (m > 1) hits = v128.and(hits, i8x16.eq(v128.load(text + i + 1), seconds));
        const found = i8x16.bitmask(hits);
        if (found != 0) {
          i += <u32>ctz(found);
          break;
        }
        i += 16;
      }
      if (i >= textLength) break;
    }
    const c = load<u8>(text + i);
    while (j > 0 && c != load<u8>(needle + j)) j = u32At(fail, j - 1);
    if (c == load<u8>(needle + j)) j++;
    if (j == m) {
      // The value holding the hit: the last whose start is at most the hit's start.
      const at = i + 1 - m;
      let lo: u32 = 0;
      let hi: u32 = n + 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (u32At(starts, mid) <= at) lo = mid + 1;
        else hi = mid;
      }
      const code = lo - 1;
      store<u8>(allowed + code, 1);
      i = u32At(starts, code + 1);
      j = 0;
      continue;
    }
    i++;
  }
}

/** The histogram's weighted prefix sums: sums[i + 1] = Σ values[j] · inverse · counts[j] over j ≤ i, left to right. */
export function weightedPrefix(values: usize, counts: usize, m: u32, inverse: f64, sums: usize): void {
  let total: f64 = 0;
  store<f64>(sums, 0);
  for (let i: u32 = 0; i < m; i++) {
    const at = (<usize>i) << 3;
    total += load<f64>(values + at) * inverse * load<f64>(counts + at);
    store<f64>(sums + at, total, 8);
  }
}

/** Σ values[i] · inverse · counts[i] over [start, end), left to right: one bucket's sum, summed on its own. */
export function weightedSum(values: usize, counts: usize, start: u32, end: u32, inverse: f64): f64 {
  let sum: f64 = 0;
  for (let i = start; i < end; i++) {
    const at = (<usize>i) << 3;
    sum += load<f64>(values + at) * inverse * load<f64>(counts + at);
  }
  return sum;
}
