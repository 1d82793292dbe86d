const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : integer.format(n);
}

/** Hourly prices: the API does not name a currency, but the data are US contracts in dollars. */
export function formatPrice(n: number | null | undefined): string {
  return n === null || n === undefined || Number.isNaN(n) ? '—' : money.format(n);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A scan's day as the data records it (UTC): in the reader's zone a week filed at midnight UTC would show the
 * day before west of Greenwich (2025-02-10 as Feb 9).
 */
export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
}

/** A signed figure with a typographic minus: +12.5%, −0.31; a dash for none. */
export function formatSigned(value: number | null, digits: number, unit = ''): string {
  return value === null ? '—' : `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value).toFixed(digits)}${unit}`;
}
