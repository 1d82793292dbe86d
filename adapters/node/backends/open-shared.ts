/**
 * The server's side of share-process.ts: start it, and read what it writes into shared memory, one
 * SharedArrayBuffer per file and prepared bind, allocated once at its final size (so reading leaves no large
 * freed buffers behind in the server's process).
 */
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { ShareHeader, ShareOptions, SharedDataset, SharedDatasets } from './pool-protocol.ts';
import { bundledFile } from '../datasets/package-root.ts';

const shared = (length: number): Uint8Array => new Uint8Array(new SharedArrayBuffer(length));

export function openShared(options: ShareOptions): Promise<SharedDatasets> {
  const child = spawn(process.execPath, [bundledFile('share-process.js'), JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'pipe'] });
  const pipe = child.stdio[3] as Readable;
  return new Promise((done, fail) => {
    const headerParts: Buffer[] = [];
    let header: ShareHeader | null = null;
    let result: SharedDatasets | null = null;
    // Where the incoming bytes go: each file and prepared bind in the header's order.
    let targets: Uint8Array[] = [];
    let target = 0;
    let filled = 0;
    pipe.on('data', (chunk: Buffer) => {
      let offset = 0;
      if (!header) {
        const end = chunk.indexOf(10);
        if (end < 0) return void headerParts.push(chunk);
        headerParts.push(chunk.subarray(0, end));
        header = JSON.parse(Buffer.concat(headerParts).toString('utf8')) as ShareHeader;
        if ('error' in header) return;
        const datasets: SharedDataset[] = header.sizes.map(({ name, file, prepared, snapshot, attachment }) => ({
          name,
          file: shared(file),
          prepared: prepared === null ? null : shared(prepared),
          snapshot,
          attachment,
        }));
        result = { datasets: header.datasets, shared: datasets };
        targets = datasets.flatMap(({ file, prepared }) => (prepared ? [file, prepared] : [file]));
        offset = end + 1;
      }
      while (offset < chunk.length && target < targets.length) {
        const into = targets[target];
        const n = Math.min(into.length - filled, chunk.length - offset);
        into.set(chunk.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === into.length) {
          target++;
          filled = 0;
        }
      }
    });
    child.once('error', fail);
    child.once('close', (code) => {
      if (header && 'error' in header) return fail(new Error(header.error));
      // Zero-length parts are complete without a byte.
      while (target < targets.length && targets[target].length === 0) target++;
      if (code === 0 && result && target === targets.length) return done(result);
      fail(new Error(`the process opening the datasets exited (${code}) before it sent them`));
    });
  });
}
