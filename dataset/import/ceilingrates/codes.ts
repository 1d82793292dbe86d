/**
 * The coded ceiling-rate fields as the price lists spell them (data.md, the real samples): education,
 * business size, worksite, security clearance. Each returns the code, or null when the text is not
 * recognised (the caller keeps the original text and notes it).
 */

/**
 * The first education level the text names (`M.S. or B.S.` → MA; `Bachelor's degree. May substitute … an
 * Associates degree` → BA): the requirement is stated first, alternatives after.
 */
const EDUCATION_PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/\bph\.? ?d\b|\bdoctor(ate|al)?\b/, 'PHD'],
  [/\bmasters?\b|\bmaster['’\ufffd]?s\b|\bm\.?[as]\.?(?![a-z])|\bmba\b/, 'MA'],
  [/\bbachelors?\b|\bbachelor['’\ufffd]?s\b|\bb\.?[as]\.?(?![a-z])|\b4[ -]?(yr|year) degree\b/, 'BA'],
  // Not `as` alone: it is an English word in long requirement texts.
  [/\bassociates?\b|\bassociate['’\ufffd]?s\b|\ba\.\s?[as]\b|\baa\b|\b2[ -]?(yr|year) degree\b/, 'AA'],
  [/\bhigh school\b|\bhs\b|\bged\b|\bdiploma\b/, 'HS'],
];

const EDUCATION_CODES = new Set(['AA', 'BA', 'HS', 'MA', 'PHD', 'NONE', 'OTHER']);

export function educationCode(value: string): string | null {
  const trimmed = value.trim();
  if (EDUCATION_CODES.has(trimmed.toUpperCase())) return trimmed.toUpperCase();
  const lower = trimmed.toLowerCase();
  if (/^(none|n\/a|na|no degree|not required)$/.test(lower)) return 'NONE';
  if (/^other$/.test(lower)) return 'OTHER';
  let best: { at: number; code: string } | null = null;
  for (const [pattern, code] of EDUCATION_PATTERNS) {
    const match = pattern.exec(lower);
    if (match && (best === null || match.index < best.at)) best = { at: match.index, code };
  }
  return best?.code ?? null;
}

export function businessSizeCode(value: string): string | null {
  const lower = value.trim().toLowerCase();
  if (lower === 's' || lower === 'small' || lower === 'small business') return 'S';
  if (lower === 'o' || lower === 'other' || lower === 'other than small' || lower === 'other than small business' || lower === 'large') return 'O';
  return null;
}

const WORKSITES = ['Customer Facility', 'Contractor Facility', 'Customer Site', 'Contractor Site', 'Customer', 'Contractor', 'Both', 'None'];

/** The documented worksite spellings, case-insensitively; `N/A` is None. */
export function worksiteName(value: string): string | null {
  const lower = value.trim().toLowerCase().replace(/\s+/g, ' ');
  if (lower === 'n/a' || lower === 'na') return 'None';
  return WORKSITES.find((name) => name.toLowerCase() === lower) ?? null;
}

const CLEARANCES = ['Yes', 'No', 'None', 'As Required'];

export function clearanceName(value: string): string | null {
  const lower = value.trim().toLowerCase();
  if (lower === 'n/a') return 'None';
  return CLEARANCES.find((name) => name.toLowerCase() === lower) ?? null;
}
