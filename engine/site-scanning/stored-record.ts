/**
 * A website's record as the table stores it: the JSON text of each field's value, in record order, written once
 * when the record enters the database. A page of /websites is then its stored texts with the field names put
 * back, not a hundred columns read and a record made and serialised per row (docs/decisions/0105).
 */
import { ANSWERED_FIELDS, WEBSITE_FIELDS, type DerivedField, type FieldKind, type WebsiteAnswer, type WebsiteRecord } from './record.ts';
import { CHECK_INPUTS, derivedCheck, type CheckInput } from './derived.ts';

/**
 * Between two fields' value texts. JSON text never holds a raw control character (JSON.stringify escapes
 * U+0000–U+001F inside strings), so no value can contain it.
 */
export const FIELD_SEPARATOR = '\u0001';

/** What each field is preceded by in the record's JSON text: `{"scan_date":`, `,"target_url_domain":`, … */
const prefix = (name: string, i: number): string => `${i === 0 ? '{' : ','}${JSON.stringify(name)}:`;

/** Each stored field's prefix, in stored order. */
const PREFIXES = WEBSITE_FIELDS.map(([name]) =>
  prefix(
    name,
    ANSWERED_FIELDS.findIndex(([answered]) => answered === name),
  ),
);

/** The derived checks answered right after each stored field (by stored index), with their prefixes. */
const CHECKS_AFTER: (readonly [DerivedField, string])[][] = WEBSITE_FIELDS.map(() => []);
/** For each stored index, the check input it holds, or null. */
const INPUT_AT: (CheckInput | null)[] = WEBSITE_FIELDS.map(() => null);
/** 1 where the walk has more to do than copy the value (an input to keep, checks to write after it). */
const SPECIAL = new Uint8Array(WEBSITE_FIELDS.length);
{
  const inputNames: ReadonlySet<string> = new Set(Object.values(CHECK_INPUTS).flat());
  const seen = new Set<string>();
  let stored = -1;
  ANSWERED_FIELDS.forEach((entry, i) => {
    if (entry.length === 2) {
      stored++;
      seen.add(entry[0]);
      if (inputNames.has(entry[0])) INPUT_AT[stored] = entry[0] as CheckInput;
      return;
    }
    const missing = CHECK_INPUTS[entry[0]].filter((name) => !seen.has(name));
    if (stored < 0 || missing.length > 0) throw new Error(`the derived ${entry[0]} comes before ${missing.join(', ')}, which it is made from`);
    CHECKS_AFTER[stored].push([entry[0], prefix(entry[0], i)]);
  });
  WEBSITE_FIELDS.forEach((_, i) => (SPECIAL[i] = INPUT_AT[i] !== null || CHECKS_AFTER[i].length > 0 ? 1 : 0));
}

/**
 * A check input's value from its JSON text (stored by JSON.stringify): a string without an escape is its text
 * inside the quotes, a number its digits; only an escaped string is parsed.
 */
function inputValue(text: string): unknown {
  if (text.charCodeAt(0) !== 0x22) return Number(text);
  return text.indexOf('\\') < 0 ? text.slice(1, -1) : JSON.parse(text);
}

/**
 * A field's value as the API answers it. Booleans may come as "true"/"false" from a record built before
 * final_url_same_domain became a boolean ("false" is truthy, so a string is read by its word); production
 * answers an empty list as null.
 */
export function answeredValue(kind: FieldKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'boolean':
      return typeof value === 'string' ? value === 'true' : Boolean(value);
    case 'list':
      return Array.isArray(value) && value.length > 0 ? value : null;
    case 'object':
      return value;
    case 'number': {
      const number = Number(value);
      return Number.isFinite(number) ? number : null;
    }
    case 'text':
      return String(value);
  }
}

/** Each field's value as JSON text (a null as nothing), in record order: what the stored text joins. */
export function storedTexts(record: WebsiteRecord): string[] {
  return WEBSITE_FIELDS.map(([name, kind]) => {
    const value = answeredValue(kind, record[name]);
    return value === null ? '' : JSON.stringify(value);
  });
}

/** THE writer of the stored text: every field's value as JSON text (a null as nothing), in record order. */
export function storedRecord(record: WebsiteRecord): string {
  return storedTexts(record).join(FIELD_SEPARATOR);
}

function valueTexts(stored: string): string[] {
  const texts = stored.split(FIELD_SEPARATOR);
  if (texts.length !== WEBSITE_FIELDS.length) throw fieldCountError(stored);
  return texts;
}

/** The record's JSON text, exactly as JSON.stringify writes its answer (answeredRecord: same keys, order, values). */
export function recordJson(stored: string): string {
  return recordsJson([stored]);
}

/**
 * The records' JSON texts joined by commas (a JSON array's inside). Built by concatenation: measured faster than one
 * join of the pieces, flattening (when the body is encoded) included. Each value is cut at its separator as the walk
 * reaches it, with no array of a record's hundred values made first (that split was a third of a page's time). The
 * derived checks are made from the inputs met earlier in the same walk.
 */
export function recordsJson(stored: readonly string[]): string {
  const last = PREFIXES.length - 1;
  // One object of a fixed shape for every record's inputs: each is set before a check reads it (checked above).
  const inputs: Record<CheckInput, unknown> = {
    target_url: null,
    robots_txt_final_url: null,
    robots_txt_final_url_status_code: null,
    sitemap_xml_final_url: null,
    sitemap_xml_final_url_status_code: null,
  };
  const special = (i: number, text: string | null): string => {
    const input = INPUT_AT[i];
    if (input !== null) inputs[input] = text === null ? null : inputValue(text);
    let json = '';
    for (const [name, before] of CHECKS_AFTER[i]) json += before + String(derivedCheck(name, inputs));
    return json;
  };
  let json = '';
  for (let r = 0; r < stored.length; r++) {
    const one = stored[r];
    if (r > 0) json += ',';
    let from = 0;
    for (let i = 0; i < last; i++) {
      const at = one.indexOf(FIELD_SEPARATOR, from);
      if (at < 0) throw fieldCountError(one);
      const text = at === from ? null : one.slice(from, at);
      json += PREFIXES[i] + (text ?? 'null');
      if (SPECIAL[i] !== 0) json += special(i, text);
      from = at + 1;
    }
    if (one.indexOf(FIELD_SEPARATOR, from) >= 0) throw fieldCountError(one);
    const text = from === one.length ? null : one.slice(from);
    json += PREFIXES[last] + (text ?? 'null');
    if (SPECIAL[last] !== 0) json += special(last, text);
    json += '}';
  }
  return json;
}

/** The record as the API answers it: the stored fields and the derived checks, in ANSWERED_FIELDS order. */
export function answeredRecord(record: WebsiteRecord): WebsiteAnswer {
  const answer: Record<string, unknown> = {};
  for (const entry of ANSWERED_FIELDS) {
    answer[entry[0]] = entry.length === 2 ? record[entry[0]] : derivedCheck(entry[0], record);
  }
  return answer as unknown as WebsiteAnswer;
}

function fieldCountError(stored: string): Error {
  return new Error(`a stored website record has ${stored.split(FIELD_SEPARATOR).length} fields, not ${WEBSITE_FIELDS.length}`);
}

/** The record as an object, for the readers that look at its fields (history, the diff, exports to PostgreSQL). */
export function recordFromStored(stored: string): WebsiteRecord {
  const texts = valueTexts(stored);
  const record: Record<string, unknown> = {};
  WEBSITE_FIELDS.forEach(([name], i) => {
    record[name] = texts[i] === '' ? null : JSON.parse(texts[i]);
  });
  return record as unknown as WebsiteRecord;
}
