/**
 * What a built bundle is made of: each source file's (or package's) share of a chunk's bytes, read from the chunk's
 * source map (every mapped span counted to the file it came from). For the DB worker's budget (docs/decisions/0300):
 *
 *   npx tsx scripts/measure-bundle.ts dist/assets/db.worker-*.js [--files] [--top 40]
 *
 * Without --files, source files are grouped by folder (two levels) and packages by name.
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const chunk = args.find((arg) => arg.endsWith('.js'));
if (!chunk) {
  console.error('usage: npx tsx scripts/measure-bundle.ts <chunk.js> [--files] [--top N]');
  process.exit(2);
}
const byFile = args.includes('--files');
const top = Number(args[args.indexOf('--top') + 1]) || 40;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The source map's mappings, per generated line: [generated column, source index?] (base64 VLQ, fields relative). */
function decode(mappings: string): [number, number?][][] {
  const lines: [number, number?][][] = [];
  let source = 0;
  for (const line of mappings.split(';')) {
    const segments: [number, number?][] = [];
    let column = 0;
    for (const segment of line.split(',')) {
      if (!segment) continue;
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length > 1) {
        source += fields[1];
        segments.push([column, source]);
      } else segments.push([column]);
    }
    lines.push(segments);
  }
  return lines;
}

const code = readFileSync(chunk, 'utf8');
const map = JSON.parse(readFileSync(`${chunk}.map`, 'utf8')) as { sources: string[]; mappings: string };
const lines = code.split('\n');
const shares = new Map<string, number>();
decode(map.mappings).forEach((segments, index) => {
  const line = lines[index] ?? '';
  segments.forEach((segment, i) => {
    const end = i + 1 < segments.length ? segments[i + 1][0] : line.length;
    const source = segment[1] === undefined ? '(generated)' : map.sources[segment[1]];
    const key = byFile ? source.replace(/^(\.\.\/)+/, '') : group(source);
    shares.set(key, (shares.get(key) ?? 0) + Buffer.byteLength(line.slice(segment[0], end)));
  });
});

function group(source: string): string {
  const pkg = source.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  if (pkg) return `npm:${pkg[1]}`;
  return source
    .replace(/^(\.\.\/)+/, '')
    .split('/')
    .slice(0, 2)
    .join('/');
}

console.log(`${chunk}: ${Buffer.byteLength(code)} bytes`);
for (const [key, bytes] of [...shares].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${String(bytes).padStart(8)}  ${key}`);
