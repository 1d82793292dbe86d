/**
 * Production's 2026 vocabulary for the ceiling-rate values this data holds in the interface's (docs/api/differences.md,
 * recorded 2026-10-10): one table, read both ways. The production dialect writes the values with it
 * (production.ts), and every dialect's filters accept them (parse-query.ts), so a query written for production
 * (`filter=education_level:Bachelors`) keeps matching here, as one written for the interface (`BA`) does.
 */
import { clearanceClass } from './text.ts';

/**
 * The education codes spelled out, as production's `_source.education_level` and term keys have them. `HS` is
 * written `High School` (production also has `High School Equivalent`, which this data folds into `HS`). `NONE` is
 * written `None`, as the price lists production loads write it (their `Minimum Education`, like the other levels);
 * `OTHER` was not seen in a recording nor in a list: the code is preserved.
 */
export const EDUCATION_SPELLED: Readonly<Record<string, string>> = {
  HS: 'High School',
  AA: 'Associates',
  BA: 'Bachelors',
  MA: 'Masters',
  PHD: 'PhD',
  TEC: 'Other Tech School or Certification',
  NONE: 'None',
};

const EDUCATION_CODE: ReadonlyMap<string, string> = new Map([
  ...Object.entries(EDUCATION_SPELLED).map(([code, spelled]) => [spelled, code] as const),
  ['High School Equivalent', 'HS'],
]);

/** An education value as the data holds it: a spelled-out level becomes its code, anything else is preserved. */
export function educationCode(value: string): string {
  return EDUCATION_CODE.get(value) ?? value;
}

export function educationSpelled(code: string): string {
  return EDUCATION_SPELLED[code] ?? code;
}

/**
 * The clearance as production's boolean, by the filter's own classes (text.ts): `Yes` true, `No` and `None` false.
 * A value of neither class (`As Required`, null) has no boolean production was seen to give: null.
 */
export function clearanceBoolean(value: string | null): boolean | null {
  const cls = clearanceClass(value);
  return cls === null ? null : cls === 'yes';
}

/** A clearance filter's class from production's vocabulary too: `true` is `yes`, `false` is `no`. */
export function clearanceFilterClass(value: string): string {
  const v = value.trim().toLowerCase();
  return v === 'true' ? 'yes' : v === 'false' ? 'no' : v;
}

/** The worksite as production writes it: `Customer_Facility`, `Contractor_Facility`, `Virtual`. */
export function worksiteWritten(value: string): string {
  return value.replaceAll(' ', '_');
}

/** A worksite phrase from production's vocabulary: `Customer_Facility` reads as the words `Customer Facility`. */
export function worksiteWords(value: string): string {
  return value.replaceAll('_', ' ');
}
