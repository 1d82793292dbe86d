/**
 * What a query matches, decided once per DISTINCT value of each field it names (a few thousand strings, not
 * 250,000 records): per condition, the codes of the values the parameter's own rule allows (search: the whole
 * value, case-sensitive; keyword and suggest-contains: the folded text inside the folded value; the filters:
 * their values, SIN codes, list elements, worksite words, clearance classes), plus the numeric ranges and the
 * excluded ids. A record matches when it passes every condition. Each store executes the same plan its own
 * way: the in-memory index over its columns (match.ts), a database as conditions on its code columns.
 */
import type { CeilingRatesQuery, FieldText } from '../parse-query.ts';
import { SEARCH_FIELDS } from '../parameters.ts';
import type { Dictionary } from '../columns/dictionary.ts';
import { clearanceClass, containsWords } from '../text.ts';
import type { ContainsSearch, PlannedField, PlannedValues, ValueForms } from './value-forms.ts';

/** A condition on codes: a record passes when its value of one of the parts' fields is allowed (`allowed[code]` is 1). */
export type CodeCondition = readonly { field: PlannedField; allowed: Uint8Array }[];

export type RangeField = 'current_price' | 'min_years_experience';

/** Inclusive ranges of a numeric field, any of which a record's value must fall in (no value falls in none). */
export interface RangeCondition {
  field: RangeField;
  ranges: readonly (readonly [number, number])[];
}

export interface MatchPlan {
  codes: CodeCondition[];
  ranges: RangeCondition[];
  /** Ids no match may have (ids no record has among them). */
  exclude: readonly number[];
}

/** What plans are made from: each planned field's values, their derived forms, and the keyword's search. */
export interface PlanSources {
  dicts: PlannedValues;
  forms: ValueForms;
  containing: ContainsSearch;
}

/** Which distinct values of a dictionary pass a test. */
function allowedValues(dict: Pick<Dictionary, 'values'>, test: (value: string | null, code: number) => boolean): Uint8Array {
  const allowed = new Uint8Array(dict.values.length);
  for (let code = 0; code < dict.values.length; code++) allowed[code] = test(dict.values[code], code) ? 1 : 0;
  return allowed;
}

/** Whether a value's parts (a few SIN codes or list elements) include a wanted one: per part, not per alternative. */
function intersects(parts: ReadonlySet<string>, wanted: ReadonlySet<string>): boolean {
  for (const part of parts) if (wanted.has(part)) return true;
  return false;
}

const exactly = (values: readonly number[]): [number, number][] => values.map((v) => [v, v]);

/** The plan of a query's search, keyword, filters and exclusions, and suggest-contains' text (`contains`). */
export function matchPlan({ dicts, forms, containing }: PlanSources, query: CeilingRatesQuery, contains: FieldText | null = null): MatchPlan {
  const codes: CodeCondition[] = [];
  const ranges: RangeCondition[] = [];
  const one = (field: PlannedField, test: (value: string | null, code: number) => boolean): void => {
    codes.push([{ field, allowed: allowedValues(dicts.text[field], test) }]);
  };
  // search: the whole stored value equals the text exactly: case-sensitive, untrimmed (production's term query).
  for (const search of query.searches) one(search.field, (v) => v === search.text);
  if (query.keyword !== null) codes.push(SEARCH_FIELDS.map((field) => ({ field, allowed: containing.codes(field, query.keyword!) })));
  if (contains) codes.push([{ field: contains.field, allowed: containing.codes(contains.field, contains.text) }]);
  for (const filter of query.filters) {
    switch (filter.name) {
      case 'education_level':
      case 'business_size': {
        const wanted = new Set(filter.values);
        one(filter.name, (v) => v !== null && wanted.has(v));
        break;
      }
      case 'site':
        one('worksite', (v) => v !== null && filter.phrases.some((p) => containsWords(v, p)));
        break;
      case 'security_clearance':
        one('security_clearance', (v) => {
          const cls = clearanceClass(v);
          return cls !== null && filter.classes.includes(cls);
        });
        break;
      case 'sin': {
        const sets = forms.sinSets.get();
        const wanted = new Set(filter.codes);
        one('sin', (_, code) => intersects(sets[code], wanted));
        break;
      }
      case 'category':
      case 'subcategory': {
        const sets = forms.listSets.get(filter.name);
        const wanted = new Set(filter.values);
        one(filter.name, (_, code) => intersects(sets[code], wanted));
        break;
      }
      case 'min_years_experience':
      case 'current_price':
        ranges.push({ field: filter.name, ranges: exactly(filter.values) });
        break;
      case 'experience_range':
        ranges.push({ field: 'min_years_experience', ranges: filter.ranges });
        break;
      case 'price_range':
        ranges.push({ field: 'current_price', ranges: filter.ranges });
        break;
    }
  }
  return { codes, ranges, exclude: query.exclude };
}

/** Whether a plan has no condition: every record matches. */
export const matchesEvery = (plan: MatchPlan): boolean => plan.codes.length === 0 && plan.ranges.length === 0 && plan.exclude.length === 0;

/** Whether a numeric value falls in any of the ranges (a null value, NaN, in none). */
export const inRanges = (value: number, ranges: RangeCondition['ranges']): boolean => ranges.some(([lo, hi]) => value >= lo && value <= hi);
