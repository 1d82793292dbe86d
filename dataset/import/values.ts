/**
 * Value normalisers shared by both datasets. A CSV cell is a string; a JSON value is already typed;
 * both go through the same functions. Each one notes what it changed (or could not read) on `notes`,
 * so the report can say what was normalised, with examples.
 */
import type { ValueNotes } from './report.ts';

/** True for an absent value: undefined, null, or a string of only white space. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Text as stored: blank → null, other types as their JSON text. White space inside is the data's own. */
export function text(value: unknown): string | null {
  if (isBlank(value)) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const TRUE_TEXT = new Set(['true', '1', '1.0']);
const FALSE_TEXT = new Set(['false', '0', '0.0']);

/** `true`/`True`/`TRUE`/`1`/`1.0` and their false forms; anything else is noted and becomes null. */
export function boolean(value: unknown, field: string, notes: ValueNotes): boolean | null {
  if (isBlank(value)) return null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && (value === 0 || value === 1)) {
    notes.note(field, 'number as boolean', 'normalised', value, value === 1);
    return value === 1;
  }
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    const result = TRUE_TEXT.has(lower) ? true : FALSE_TEXT.has(lower) ? false : null;
    if (result !== null) {
      const exact = value === 'true' || value === 'false';
      if (!exact) notes.note(field, `${/^[01]/.test(lower) ? '1/0' : 'True/TRUE'} as boolean`, 'normalised', value, result);
      return result;
    }
  }
  notes.note(field, 'not a boolean', 'set-to-null', value, null);
  return null;
}

/**
 * A decimal number. Written so that no two parts can match the same digits: the former
 * `\d+\.?\d*` let a run of n digits followed by a non-digit be split n² ways (100,000 digits: 25 s).
 */
const NUMBER_TEXT = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * A number written in any of the ways the files use: `200`, `200.0`, `1,234`, `$1,234.50`, ` 98.24 `.
 * Returns null (noted) when the text is not a number.
 */
export function number(value: unknown, field: string, notes: ValueNotes): number | null {
  if (isBlank(value)) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') {
    notes.note(field, 'not a number', 'set-to-null', value, null);
    return null;
  }
  const trimmed = value.trim();
  const plain = trimmed.replace(/^\$\s*/, '').replace(/(\d),(?=\d{3}(\D|$))/g, '$1');
  const parsed = NUMBER_TEXT.test(plain) ? Number(plain) : Number.NaN;
  if (!Number.isFinite(parsed)) {
    notes.note(field, 'not a number', 'set-to-null', value, null);
    return null;
  }
  if (plain !== trimmed) {
    const kind = trimmed.startsWith('$') ? (trimmed.includes(',') ? '$ and thousands separator' : '$ sign') : 'thousands separator';
    notes.note(field, kind, 'normalised', value, parsed);
  }
  return parsed;
}

/** A whole number; `200.0` is 200 (noted), `12.5` is not a whole number (noted, null). */
export function integer(value: unknown, field: string, notes: ValueNotes): number | null {
  const parsed = number(value, field, notes);
  if (parsed === null) return null;
  if (!Number.isInteger(parsed)) {
    notes.note(field, 'not a whole number', 'set-to-null', value, null);
    return null;
  }
  // Beyond 2^53 a double no longer holds every whole number, and SQLite's INTEGER refuses 1e300.
  if (!Number.isSafeInteger(parsed)) {
    notes.note(field, 'whole number beyond ±2^53', 'set-to-null', value, null);
    return null;
  }
  if (typeof value === 'string' && /\.0*\s*$/.test(value)) notes.note(field, 'decimal form of a whole number', 'normalised', value, parsed);
  return parsed;
}

function stringList(items: unknown[]): string[] {
  return items.filter((item) => !isBlank(item)).map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
}

/** `['a', 'b']` as Python prints it (re-saved copies): single quotes become JSON strings. */
function parsePythonList(textValue: string): unknown[] | null {
  const json = textValue.replace(/'((?:[^'\\]|\\.)*)'/g, (_match, inner: string) => JSON.stringify(inner.replace(/\\'/g, "'")));
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * A list: a JSON array, JSON array text in a cell (`["gov","dap"]`), Python-style text (`['gov', 'dap']`),
 * or plain comma-separated text. An empty list is null (the API answers it so).
 */
export function list(value: unknown, field: string, notes: ValueNotes): string[] | null {
  if (isBlank(value)) return null;
  let items: unknown[] | null = null;
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        if (Array.isArray(parsed)) items = parsed;
      } catch {
        items = parsePythonList(trimmed);
        if (items) notes.note(field, 'Python-style list text', 'normalised', value, stringList(items));
      }
      if (!items) {
        notes.note(field, 'unreadable list text', 'set-to-null', value, null);
        return null;
      }
    } else {
      items = trimmed.split(',').map((item) => item.trim());
      notes.note(field, 'comma-separated text as list', 'normalised', value, stringList(items));
    }
  } else {
    notes.note(field, 'not a list', 'set-to-null', value, null);
    return null;
  }
  const result = stringList(items);
  if (result.length === 0) {
    notes.note(field, 'empty list as null', 'normalised', value, null);
    return null;
  }
  return result;
}

/** A flat object of strings: a JSON object or JSON object text in a cell (`{"agency":"ABMC"}`). */
export function stringObject(value: unknown, field: string, notes: ValueNotes): Record<string, string> | null {
  if (isBlank(value)) return null;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value.trim());
    } catch {
      parsed = undefined;
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    notes.note(field, 'not an object', 'set-to-null', value, null);
    return null;
  }
  const result: Record<string, string> = {};
  for (const [key, item] of Object.entries(parsed)) {
    result[key] = typeof item === 'string' ? item : item === null ? '' : JSON.stringify(item);
  }
  return result;
}

/** Whole-number text with a unit or in words, as price lists write experience: `5 years`, `Five (5) years`, `1-3 years`. */
export function leadingInteger(value: unknown, field: string, notes: ValueNotes): number | null {
  if (isBlank(value)) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (/^\d+(\.0*)?$/.test(trimmed)) return Math.trunc(Number(trimmed));
    const match = /(\d+)/.exec(trimmed);
    if (match) {
      const result = Number(match[1]);
      notes.note(field, 'number taken from text', 'normalised', value, result);
      return result;
    }
  }
  notes.note(field, 'not a number', 'set-to-null', value, null);
  return null;
}
