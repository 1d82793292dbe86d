/**
 * Rows into a table through `COPY … FROM STDIN` (Postgres' bulk path: no statement per batch, no parameter
 * arrays to build and parse), in COPY's text format. pg has no COPY of its own; pg-copy-streams is its stream.
 */
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { quote } from './quote.ts';

/** A cell as Postgres' text format needs it: null is `\N`; backslash, tab, newline and return are escaped. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (value instanceof Uint8Array) value = new TextDecoder().decode(value);
  const text = String(value);
  // Most cells hold none of the four: the test is cheaper than four replaces.
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]) : text;
}
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** Lines are sent in chunks of about this many characters: large enough that a write is not per row. */
const CHUNK = 1 << 20;

/**
 * COPY the rows `rows` yields into `table`'s `columns`, inside the caller's transaction. Numbers are written
 * with JavaScript's shortest round-trip form, which Postgres reads back to the same double.
 */
export async function copyRows(client: pg.PoolClient, table: string, columns: readonly string[], rows: Iterable<readonly unknown[]>): Promise<number> {
  const stream = client.query(copyFrom(`COPY ${table} (${columns.map(quote).join(', ')}) FROM STDIN`));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  // Awaited below; this handler only keeps an early failure from counting as unhandled meanwhile.
  done.catch(() => {});
  let count = 0;
  let chunk = '';
  const write = async (text: string): Promise<void> => {
    // Wait for the socket when it is behind, so a load of millions of rows does not buffer them all.
    // A failure while waiting ends the wait (no drain follows an error).
    if (!stream.write(text)) await Promise.race([new Promise<void>((resolve) => stream.once('drain', resolve)), done]);
  };
  try {
    for (const row of rows) {
      chunk += row.map(cell).join('\t') + '\n';
      count++;
      if (chunk.length >= CHUNK) {
        await write(chunk);
        chunk = '';
      }
    }
    if (chunk) await write(chunk);
    stream.end();
  } catch (error) {
    stream.destroy(error as Error);
  }
  await done;
  return count;
}
