/**
 * The five small term fields (security_clearance, worksite, experience, education_level, business_size) have
 * a few values each, and only some thousands of their combinations occur. Each record gets the code of its
 * combination, so a filter on any of them is decided once per combination and applied in one pass, and the
 * aggregations count combinations and split them into the five fields afterwards.
 */
import type { ColumnStore } from './store.ts';
import { narrow, type Codes, type Dictionary } from './dictionary.ts';

export const COMBO_FIELDS = ['security_clearance', 'worksite', 'min_years_experience', 'education_level', 'business_size'] as const;
export type ComboField = (typeof COMBO_FIELDS)[number];

export interface Combos {
  /** The five fields' dictionaries, in COMBO_FIELDS order. */
  dicts: Dictionary[];
  /** Each record's combination. */
  codes: Codes;
  /** The five field codes of each combination, combination-major. */
  fieldCodes: Uint32Array;
  count: number;
}

/** A combination field's dictionary: a text field's own, or the experience's term keys. */
export function comboDictionary<D>(dicts: { text: Record<Exclude<ComboField, 'min_years_experience'>, D>; experienceKeys: D }, field: ComboField): D {
  return field === 'min_years_experience' ? dicts.experienceKeys : dicts.text[field];
}

export function buildCombos(store: ColumnStore): Combos {
  const dicts = COMBO_FIELDS.map((f) => comboDictionary(store, f));
  const [a, b, c, d, e] = dicts.map((dict) => dict.codes);
  const [sb, sc, sd, se] = dicts.slice(1).map((dict) => dict.values.length);
  // The key space is small (a few values per field): a dense table numbers the combinations without a Map.
  const space = dicts.reduce((product, dict) => product * dict.values.length, 1);
  const dense = space <= 1 << 22 ? new Int32Array(space).fill(-1) : null;
  const comboOf = new Map<number, number>();
  const fieldCodes: number[] = [];
  const codes = new Uint32Array(store.size);
  let count = 0;
  for (let r = 0; r < store.size; r++) {
    // A mixed-radix key over the five codes; the dictionaries are small, so it stays an exact integer.
    const key = (((a[r] * sb + b[r]) * sc + c[r]) * sd + d[r]) * se + e[r];
    let combo = dense ? dense[key] : (comboOf.get(key) ?? -1);
    if (combo < 0) {
      combo = count++;
      if (dense) dense[key] = combo;
      else comboOf.set(key, combo);
      fieldCodes.push(a[r], b[r], c[r], d[r], e[r]);
    }
    codes[r] = combo;
  }
  return { dicts, codes: narrow(codes, count), fieldCodes: Uint32Array.from(fieldCodes), count };
}
