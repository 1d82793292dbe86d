/**
 * Patches from an earlier build's datasets to this build's (docs/decisions/0407): for each dataset whose file
 * differs, the patch (dataset/artifact/binary-patch.ts), Brotli-encoded, written beside the files as
 * `<name>.from-<12 hex of the earlier sha256>.patch.br` and listed in that dataset's `patches` in the manifest,
 * when it is clearly smaller than the browser's download of the whole file (WORTH_IT; otherwise none).
 * A patch already listed from the same earlier file is replaced. The command is tools/make-patches.ts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { MANIFEST_FILE, sha256Hex, transferArtifact, type DatasetArtifact, type Manifest, type PatchFile } from '../dataset/artifact/format.ts';
import { manifestArtifacts } from '../dataset/artifact/manifest.ts';
import { makePatch } from './binary-diff.ts';
import { brotliDatabase } from '../adapters/node/datasets/dataset-writer.ts';

/**
 * A patch is shipped only when it is at most this share of the whole file: applying one costs the browser a
 * fraction of a second (decode, apply, sha256 of the result), about what a tenth of a 5 MB file takes to arrive at
 * 10 Mbps. Across 17 weeks the Site Scanning patch is 96 % of the file and is not worth it (decision 0407).
 */
const WORTH_IT = 0.9;

const readManifestFile = async (dir: string): Promise<Manifest> => JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
const readRaw = async (dir: string, artifact: DatasetArtifact): Promise<Uint8Array> => new Uint8Array(gunzipSync(await readFile(join(dir, artifact.file))));

/** The patch file from `older` to `newer` and its manifest entry, or null when the whole file is smaller. */
async function patchFor(
  fromDir: string,
  toDir: string,
  older: DatasetArtifact,
  newer: DatasetArtifact,
): Promise<{ file: string; bytes: Uint8Array; entry: PatchFile } | null> {
  const [oldRaw, newRaw] = await Promise.all([readRaw(fromDir, older), readRaw(toDir, newer)]);
  const started = performance.now();
  const patch = makePatch(oldRaw, newRaw);
  const bytes = brotliDatabase(patch);
  const whole = transferArtifact(newer, new Set(['br'])).bytes;
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `patches: ${newer.name} ${older.sha256.slice(0, 12)} → ${newer.sha256.slice(0, 12)}: ${bytes.length} bytes against ${whole} for the whole file (${secs} s)`,
  );
  if (bytes.length > WORTH_IT * whole) return null;
  const file = `${newer.name}.from-${older.sha256.slice(0, 12)}.patch.br`;
  const entry: PatchFile = {
    from: older.sha256,
    file,
    encoding: 'br',
    bytes: bytes.length,
    sha256: await sha256Hex(bytes),
    patchBytes: patch.length,
    resultSha256: await sha256Hex(newRaw),
  };
  return { file, bytes, entry };
}

/** Write the patches from the build in `fromDir` to the one in `toDir`, and list them in `toDir`'s manifest. */
export async function addPatches(fromDir: string, toDir: string): Promise<void> {
  const [earlier, manifest] = await Promise.all([readManifestFile(fromDir), readManifestFile(toDir)]);
  for (const artifact of manifestArtifacts(manifest)) {
    const older = earlier.datasets[artifact.name];
    if (!older || older.sha256 === artifact.sha256) continue;
    const made = await patchFor(fromDir, toDir, older, artifact);
    const others = (artifact.patches ?? []).filter((p) => p.from !== older.sha256);
    if (made) await writeFile(join(toDir, made.file), made.bytes);
    const patches = made ? [...others, made.entry] : others;
    if (patches.length) artifact.patches = patches;
    else delete artifact.patches;
  }
  await writeFile(join(toDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
}
