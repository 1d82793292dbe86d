/**
 * Writes the app's icons as real PNGs with nothing but Node (zlib for the image data, a CRC for the chunks):
 *   npx tsx tools/make-icons.ts
 * A white database glyph (a cylinder with two bands) on the theme blue. "any" icons keep the glyph at 64%
 * of the side; maskable ones keep it inside the 80% safe zone's inner circle, so any mask shape keeps it whole.
 */
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const BACKGROUND: [number, number, number] = [0x1a, 0x44, 0x80];
const FOREGROUND: [number, number, number] = [0xff, 0xff, 0xff];
const SUPERSAMPLE = 4;

/** Coverage of the glyph at (x, y) in a unit square, glyph scaled to `scale` of the side and centred. */
function inGlyph(x: number, y: number, scale: number): boolean {
  const u = (x - 0.5) / scale; // -0.5 … 0.5 across the glyph box
  const v = (y - 0.5) / scale;
  const rx = 0.36;
  const ry = 0.12;
  const top = -0.34;
  const bottom = 0.34;
  const inEllipse = (cy: number) => (u / rx) ** 2 + ((v - cy) / ry) ** 2 <= 1;
  const body = Math.abs(u) <= rx && v >= top && v <= bottom;
  if (!(body || inEllipse(top) || inEllipse(bottom))) return false;
  // The rim of the lid and two bands: lower halves of ellipses drawn in the background colour.
  const band = (cy: number) => {
    const d = (u / rx) ** 2 + ((v - cy) / ry) ** 2;
    return v >= cy && d >= 0.72 && d <= 1;
  };
  return !(band(top) || band(top + 0.23) || band(top + 0.46));
}

function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function png(size: number, scale: number): Buffer {
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let py = 0; py < size; py++) {
    const row = py * (1 + size * 3);
    rows[row] = 0; // filter: none
    for (let px = 0; px < size; px++) {
      let covered = 0;
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          if (inGlyph((px + (sx + 0.5) / SUPERSAMPLE) / size, (py + (sy + 0.5) / SUPERSAMPLE) / size, scale)) covered++;
        }
      }
      const a = covered / SUPERSAMPLE ** 2;
      for (let c = 0; c < 3; c++) rows[row + 1 + px * 3 + c] = Math.round(BACKGROUND[c] * (1 - a) + FOREGROUND[c] * a);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', new Uint8Array())]);
}

const icons: { file: string; size: number; scale: number }[] = [
  { file: 'icon-192.png', size: 192, scale: 0.64 },
  { file: 'icon-512.png', size: 512, scale: 0.64 },
  { file: 'icon-maskable-192.png', size: 192, scale: 0.5 },
  { file: 'icon-maskable-512.png', size: 512, scale: 0.5 },
];
for (const { file, size, scale } of icons) {
  const bytes = png(size, scale);
  writeFileSync(`public/icons/${file}`, bytes);
  console.log(`public/icons/${file}: ${size}×${size}, ${bytes.length} bytes`);
}
