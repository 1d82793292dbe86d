/**
 * `offline-gov-api fetch-extra <id> --from <app address | data directory>`: one of the build's extra datasets (every
 * week of Site Scanning, the 2017 price list, the synthetic rates), which an installed package does not carry, brought
 * from a deployment of the app or from a build on disk, checked against that build's manifest, and added to the
 * package's data. The extras are not part of the manifest's version, so nothing else changes.
 */
import { createWriteStream, existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createHash } from 'node:crypto';
import { MANIFEST_FILE, type ExtraArtifact, type Manifest } from '../../../dataset/artifact/format.ts';
import { checkManifest } from '../../../dataset/artifact/manifest.ts';
import { readBuiltManifest } from '../datasets/dataset-files.ts';
import { builtDataDir } from '../datasets/package-root.ts';
import { stringOption, UsageError, type Command } from './command-line.ts';

export interface FetchExtraOptions {
  id: string;
  /** The app's address (its data is at `data/`), or a directory holding a build's manifest.json. */
  from: string;
  /** The data directory to add it to (default: the package's). */
  dataDir: string;
}

/** `fetch-extra`, as the command line reads it (adapters/node/commands/command-line.ts). */
export const FETCH_EXTRA: Command<FetchExtraOptions> = {
  name: 'fetch-extra',
  args: '<id>',
  positionals: 1,
  summary:
    "Add one of the build's extra datasets (websites-weeks, ceilingrates-s70-2017, ceilingrates-synthetic) to the package's data, from a deployment of the app or a build on disk, checked against that build's manifest",
  options: [{ name: 'from', help: "The app's address (its files are under data/), or a build's data directory", required: true }, 'data'],
  read({ values, positionals }) {
    if (positionals.length !== 1) throw new UsageError("fetch-extra needs one extra's id: fetch-extra websites-weeks --from <app address>");
    const from = stringOption(values.from);
    if (!from) throw new UsageError("fetch-extra needs --from <the app's address, or a build's data directory>");
    return { id: positionals[0], from, dataDir: stringOption(values.data) ?? builtDataDir() };
  },
  run: (options) => fetchExtra(options).then(() => undefined),
};

/** Where the other build keeps its manifest and files: a URL's `data/`, or a directory (or its `data/`). */
function place(from: string): { manifest: string; file(name: string): string; remote: boolean } {
  if (/^https?:\/\//.test(from)) {
    const base = new URL('data/', from.endsWith('/') ? from : `${from}/`);
    return { manifest: new URL(MANIFEST_FILE, base).href, file: (name) => new URL(name, base).href, remote: true };
  }
  const dir = existsSync(resolve(from, MANIFEST_FILE)) ? resolve(from) : resolve(from, 'data');
  return { manifest: resolve(dir, MANIFEST_FILE), file: (name) => resolve(dir, name), remote: false };
}

async function readFrom(where: string, remote: boolean): Promise<{ body: ReadableStream<Uint8Array>; text(): Promise<string> }> {
  if (!remote) {
    const bytes = await readFile(where).catch(() => {
      throw new Error(`${where}: not found (--from names the app's address or a build's data directory)`);
    });
    return { body: new Blob([bytes]).stream(), text: async () => bytes.toString('utf8') };
  }
  const response = await fetch(where).catch((error: unknown) => {
    throw new Error(`${where}: ${(error as Error).message}`);
  });
  if (!response.ok || !response.body) throw new Error(`${where}: HTTP ${response.status}`);
  return { body: response.body, text: () => response.text() };
}

export async function fetchExtra(options: FetchExtraOptions, say: (line: string) => void = (line) => console.error(line)): Promise<ExtraArtifact> {
  const local = await readBuiltManifest(options.dataDir);
  const from = place(options.from);
  const theirs: Manifest = checkManifest(JSON.parse(await (await readFrom(from.manifest, from.remote)).text()), from.manifest);
  const extra = theirs.extras?.find((e) => e.id === options.id);
  if (!extra) {
    const ids = (theirs.extras ?? []).map((e) => e.id).join(', ') || 'none';
    throw new Error(`${from.manifest} lists no extra "${options.id}" (it has: ${ids})`);
  }
  if (theirs.version !== local.version) {
    say(
      `${options.id}: that build's first-visit datasets are another version (${theirs.version}, here ${local.version}); its extra is a dataset of its own, used as it is`,
    );
  }
  const target = resolve(options.dataDir, extra.file);
  const partial = `${target}.part`;
  const { body } = await readFrom(from.file(extra.file), from.remote);
  const hash = createHash('sha256');
  let received = 0;
  let said = 0;
  const counted = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>).on('data', (chunk: Buffer) => {
    hash.update(chunk);
    received += chunk.length;
    if (received - said >= 8 << 20 || received === extra.bytes) {
      said = received;
      say(`${options.id}: ${(received / 1048576).toFixed(1)} of ${(extra.bytes / 1048576).toFixed(1)} MB`);
    }
  });
  try {
    await pipeline(counted, createWriteStream(partial));
    const sha256 = hash.digest('hex');
    if (received !== extra.bytes || sha256 !== extra.sha256) {
      throw new Error(`${extra.file}: ${received} bytes with sha256 ${sha256}, the manifest says ${extra.bytes} and ${extra.sha256}: not kept`);
    }
    await rename(partial, target);
  } finally {
    await rm(partial, { force: true });
  }
  // The manifest read again, just before it is written: another fetch-extra may have added its own meanwhile.
  const now = await readBuiltManifest(options.dataDir);
  now.extras = [...(now.extras ?? []).filter((e) => e.id !== extra.id), extra];
  await writeFile(resolve(options.dataDir, MANIFEST_FILE), JSON.stringify(now, null, 2) + '\n');
  say(`${options.id}: ${extra.title}, kept in ${options.dataDir} (open it with openEngine({ extras: ['${extra.id}'] }); serve opens the weeks by itself)`);
  return extra;
}
