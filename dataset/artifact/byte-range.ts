/**
 * HTTP byte ranges (RFC 9110 14), the one pair of parsers the project uses: `requestedRange` for a static
 * file server answering `Range: bytes=…` (the dev and preview servers, the browser tests' server), and
 * `contentRange` for a download reading the server's `Content-Range` of a 206 or 416.
 */

/** The bytes a Range header asks for in a file of `size` bytes: null for none (send 200), 'unsatisfiable' for 416. */
export function requestedRange(header: string | undefined | null, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: a server may answer the whole file (RFC 9110 14.2).
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [, from, to] = match;
  if (from === '') {
    const suffix = Number(to);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(size - suffix, 0), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  return start >= size || start > end ? 'unsatisfiable' : { start, end };
}

/** `Content-Range: bytes 100-199/1000` (or the unsatisfied form, an asterisk and the size), or null when the header is absent or malformed. */
export function contentRange(header: string | null): { start: number; end: number; size: number | null } | { start: null; end: null; size: number } | null {
  if (!header) return null;
  const whole = /^bytes \*\/(\d+)$/.exec(header.trim());
  if (whole) return { start: null, end: null, size: Number(whole[1]) };
  const part = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header.trim());
  if (!part) return null;
  return { start: Number(part[1]), end: Number(part[2]), size: part[3] === '*' ? null : Number(part[3]) };
}
