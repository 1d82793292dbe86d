/** Calendar dates as the price lists write them, into the record's two forms (YYYY-MM-DD and YYYYMMDD). */

export interface CalendarDate {
  iso: string;
  compact: string;
  /** Which written form it was read from, for the report; null when already YYYY-MM-DD. */
  form: string | null;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function valid(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function make(year: number, month: number, day: number, form: string | null): CalendarDate | null {
  if (!valid(year, month, day)) return null;
  const iso = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  return { iso, compact: iso.replace(/-/g, ''), form };
}

/**
 * Two-digit years follow the POSIX `%y` pivot: 69–99 are 1969–1999, 00–68 are 2000–2068
 * (the s70 price list writes `5/5/15` for 2015).
 */
export function fullYear(twoDigits: number): number {
  return twoDigits >= 69 ? 1900 + twoDigits : 2000 + twoDigits;
}

/** `YYYY-MM-DD` (a time after it is ignored), `YYYYMMDD`, `M/D/YYYY`, `M/D/YY`; null when none fits. */
export function calendarDate(value: string): CalendarDate | null {
  const text = value.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  if (m) {
    const form = /^\d{4}-\d{2}-\d{2}$/.test(text) ? null : 'ISO date with time or short parts';
    return make(Number(m[1]), Number(m[2]), Number(m[3]), form);
  }
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (m) return make(Number(m[1]), Number(m[2]), Number(m[3]), 'YYYYMMDD');
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?:\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?)?$/i.exec(text);
  if (m) {
    const twoDigit = m[3].length === 2;
    const year = twoDigit ? fullYear(Number(m[3])) : Number(m[3]);
    return make(year, Number(m[1]), Number(m[2]), twoDigit ? 'M/D/YY' : 'M/D/YYYY');
  }
  return null;
}
