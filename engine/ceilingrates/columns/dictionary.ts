/**
 * A text column (or a numeric column's term keys) as its distinct values and each record's code into them.
 */

/** Per-record codes in the narrowest array that holds them: less memory, and fewer bytes per pass. */
export type Codes = Uint8Array | Uint16Array | Uint32Array;

export function narrow(codes: Uint32Array, distinct: number): Codes {
  if (distinct <= 0x100) return Uint8Array.from(codes);
  if (distinct <= 0x10000) return Uint16Array.from(codes);
  return codes;
}

/**
 * Codes by first appearance, given each record's position among `n` distinct keys: the first position met gets
 * code 0, the next new one code 1, and so on. `positionOf` maps a code back to its position; `codeOf` maps a
 * position to its code (-1 where no record has it). Null when a position is out of range.
 */
export function codesByFirstAppearance(positions: ArrayLike<number>, n: number): { codes: Uint32Array; codeOf: Int32Array; positionOf: Uint32Array } | null {
  const codeOf = new Int32Array(n).fill(-1);
  const positionOf = new Uint32Array(n);
  const codes = new Uint32Array(positions.length);
  let seen = 0;
  for (let r = 0; r < positions.length; r++) {
    const k = positions[r];
    if (k >= n) return null;
    let c = codeOf[k];
    if (c < 0) {
      c = seen++;
      codeOf[k] = c;
      positionOf[c] = k;
    }
    codes[r] = c;
  }
  return { codes, codeOf, positionOf: positionOf.subarray(0, seen) };
}

/**
 * Distinct values of one column and each record's code into them. `rank` orders the values by key
 * (byte order for text, numeric for numbers) with null after every value.
 */
export interface Dictionary {
  values: readonly (string | null)[];
  codes: Codes;
  rank: Uint32Array;
  /** The inverse of `rank`: the code at each key position. */
  byRank: Uint32Array;
}

/** Builds a dictionary by first appearance: codes number the distinct values in row order. */
export class DictionaryBuilder {
  readonly values: (string | null)[] = [];
  private readonly index = new Map<string | null, number>();
  readonly codes: Uint32Array;

  constructor(size: number) {
    this.codes = new Uint32Array(size);
  }

  add(row: number, value: string | null): void {
    let code = this.index.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.index.set(value, code);
    }
    this.codes[row] = code;
  }

  build(compare: (a: string, b: string) => number): Dictionary {
    const order = this.values.map((_, i) => i);
    order.sort((a, b) => {
      const x = this.values[a];
      const y = this.values[b];
      if (x === null) return y === null ? 0 : 1;
      if (y === null) return -1;
      return compare(x, y);
    });
    const rank = new Uint32Array(this.values.length);
    order.forEach((code, position) => (rank[code] = position));
    return { values: this.values, codes: narrow(this.codes, this.values.length), rank, byRank: Uint32Array.from(order) };
  }
}
