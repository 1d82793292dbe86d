/**
 * Writes a generated Site Scanning snapshot CSV in the real 104-column format, for the import timing in
 * Chromium: `npx tsx tools/make-snapshot.ts out.csv [--rows 30000] [--seed 7]`. The records are the
 * websites generator's; the columns the API does not carry get realistic filler (websites/snapshot-row.ts).
 * UTF-8 with CRLF rows like the published file.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { generateWebsites } from './generate/websites.ts';
import { Random } from './random.ts';
import { SNAPSHOT_COLUMNS } from '../dataset/import/websites/snapshot-columns.ts';
import { csvLine, snapshotRow } from './snapshot-row.ts';

/** The snapshot's lines (header first), each without its line break. */
export function* snapshotLines(rows: number, seed: number): Generator<string> {
  const random = new Random(seed ^ 0x5eed);
  yield csvLine(SNAPSHOT_COLUMNS);
  for (const record of generateWebsites(rows, seed)) {
    const row = snapshotRow(record, random);
    yield csvLine(SNAPSHOT_COLUMNS.map((column) => row[column]));
  }
}

async function main(argv: string[]): Promise<void> {
  const out = argv.find((arg) => !arg.startsWith('--') && !/^\d+$/.test(arg));
  const option = (name: string, fallback: number): number => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? Number(argv[at + 1]) : fallback;
  };
  if (!out) {
    console.error('usage: npx tsx tools/make-snapshot.ts OUT.csv [--rows 30000] [--seed 7]');
    process.exit(2);
  }
  const rows = option('rows', 30_000);
  const stream = createWriteStream(out);
  let bytes = 0;
  for (const line of snapshotLines(rows, option('seed', 7))) {
    const chunk = `${line}\r\n`;
    bytes += Buffer.byteLength(chunk);
    if (!stream.write(chunk)) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'finish');
  console.log(`${out}: ${rows} rows, ${(bytes / 1e6).toFixed(1)} MB`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));
