/**
 * A website's record as the table stores it: the JSON text of each field's value, in record order, written once
 * when the record enters the database. A page of /websites is then its stored texts with the field names put
 * back, not a hundred columns read and a record made and serialised per row (docs/decisions/0105).
 */
import { WEBSITE_FIELDS, type FieldKind, type WebsiteRecord } from './record.ts';

/**
 * Between two fields' value texts. JSON text never holds a raw control character (JSON.stringify escapes
 * U+0000–U+001F inside strings), so no value can contain it.
 */
export const FIELD_SEPARATOR = '\u0001';

/** What each field is preceded by in the record's JSON text: `{"scan_date":`, `,"target_url_domain":`, … */
const PREFIXES = WEBSITE_FIELDS.map(([name], i) => `${i === 0 ? '{' : ','}${JSON.stringify(name)}:`);

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

/** THE writer of the stored text: every field's value as JSON text (a null as nothing), in record order. */
export function storedRecord(record: WebsiteRecord): string {
  return WEBSITE_FIELDS.map(([name, kind]) => {
    const value = answeredValue(kind, record[name]);
    return value === null ? '' : JSON.stringify(value);
  }).join(FIELD_SEPARATOR);
}

function valueTexts(stored: string): string[] {
  const texts = stored.split(FIELD_SEPARATOR);
  if (texts.length !== WEBSITE_FIELDS.length) throw fieldCountError(stored);
  return texts;
}

/** The record's JSON text, exactly as JSON.stringify writes the record (same keys, order and values). */
export function recordJson(stored: string): string {
  return recordsJson([stored]);
}

/**
 * The records' JSON texts joined by commas (a JSON array's inside). Built by concatenation: measured faster than one
 * join of the pieces, flattening (when the body is encoded) included. Each value is cut at its separator as the walk
 * reaches it, with no array of a record's hundred values made first (that split was a third of a page's time).
 */
export function recordsJson(stored: readonly string[]): string {
  const last = PREFIXES.length - 1;
  let json = '';
  for (let r = 0; r < stored.length; r++) {
    const one = stored[r];
    if (r > 0) json += ',';
    let from = 0;
    for (let i = 0; i < last; i++) {
      const at = one.indexOf(FIELD_SEPARATOR, from);
      if (at < 0) throw fieldCountError(one);
      json += PREFIXES[i] + (at === from ? 'null' : one.slice(from, at));
      from = at + 1;
    }
    if (one.indexOf(FIELD_SEPARATOR, from) >= 0) throw fieldCountError(one);
    json += PREFIXES[last] + (from === one.length ? 'null' : one.slice(from)) + '}';
  }
  return json;
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
