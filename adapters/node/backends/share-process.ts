/**
 * A short-lived process that opens the datasets as `openEngine` always does (manifest, sha256, unpack, or the
 * user's files through the import; the rates' bind) and writes each file and prepared bind to the server through a
 * pipe (fd 3): a JSON header line (ShareHeader), then the bytes. The server reads them straight into shared
 * memory (open-shared.ts) and this process exits. Opening peaks at several times the data's size in buffers that
 * are freed soon after; in the server's own process (even in a thread that ends) glibc held much of that freed
 * memory resident for the server's whole life and raised its threshold for returning later buffers to the system
 * (decision 0901). In a process of its own, all of it goes when the process ends.
 * Bundled on its own (tools/build-node.ts) as adapters/node/dist/share-process.js.
 */
import { Socket } from 'node:net';
import { openEngine } from '../datasets/open-engine.ts';
import { datasetBytes } from './share-datasets.ts';
import type { ShareHeader, ShareOptions } from './pool-protocol.ts';

const pipe = new Socket({ fd: 3, readable: false, writable: true });
const send = (bytes: Uint8Array | string): Promise<void> => new Promise((done, fail) => pipe.write(bytes, (error) => (error ? fail(error) : done())));

let header: ShareHeader;
let bytes: Uint8Array[] = [];
try {
  const { engine, datasets } = await openEngine(JSON.parse(process.argv[2]) as ShareOptions);
  const summaries = datasets.map(({ db: _closedBelow, ...summary }) => summary);
  const opened = datasetBytes(engine.apis, datasets);
  header = {
    datasets: summaries,
    sizes: opened.map(({ name, file, prepared, snapshot, attachment }) => ({
      name,
      file: file.byteLength,
      prepared: prepared ? prepared.byteLength : null,
      snapshot,
      attachment,
    })),
  };
  bytes = opened.flatMap(({ file, prepared }) => (prepared ? [file, prepared] : [file]));
} catch (error) {
  header = { error: error instanceof Error ? error.message : String(error) };
}
await send(JSON.stringify(header) + '\n');
for (const part of bytes) await send(part);
pipe.end(() => process.exit('error' in header ? 1 : 0));
