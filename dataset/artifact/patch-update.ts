/**
 * A new version of a dataset made from the older file kept on this machine and the build's patch between them
 * (docs/decisions/0407); acquire.ts downloads the patch in its order. Platform-free.
 */
import type { DatasetArtifact, PatchFile } from './format.ts';
import { sha256Hex, transferArtifact } from './format.ts';
import { applyPatch } from './binary-patch.ts';
import { decodable, decodeWhole, decoderFor, type Decoders } from './unpack.ts';
import type { KeptDatabase, UnpackedStore } from './unpacked-store.ts';

/** The patch to download for this artifact, given the kept file's artifact sha256: one from it, smaller than the file. */
export function usablePatch(artifact: DatasetArtifact, keptSha256: string, decoders: Decoders | null): PatchFile | null {
  const encodings = decodable(decoders);
  const whole = transferArtifact(artifact, encodings).bytes;
  return artifact.patches?.find((p) => p.from === keptSha256 && encodings.has(p.encoding) && p.bytes < whole) ?? null;
}

/** The older file kept here and the patch from it, or null: no kept file, no patch from it, or none smaller than the whole file. */
export async function patchFromKept(
  artifact: DatasetArtifact,
  unpacked: UnpackedStore | null,
  decoders: Decoders | null,
): Promise<{ kept: KeptDatabase; patch: PatchFile } | null> {
  if (!artifact.patches?.length || !unpacked) return null;
  const kept = await unpacked.readKept(artifact.name, (sha256) => usablePatch(artifact, sha256, decoders) !== null).catch(() => null);
  const patch = kept && usablePatch(artifact, kept.sha256, decoders);
  return patch ? { kept: kept.database, patch } : null;
}

/** The database the verified patch makes from the kept file; throws when it is not the manifest's. The kept file is only read. */
export async function patchedDatabase(
  artifact: DatasetArtifact,
  { kept, patch }: { kept: KeptDatabase; patch: PatchFile },
  patchBytes: Uint8Array,
  decoders: Decoders | null,
): Promise<Uint8Array> {
  const raw = applyPatch(kept.raw, decodeWhole(await decoderFor(patch.encoding, patch.patchBytes, decoders), patchBytes));
  if (raw.length !== artifact.rawBytes || (await sha256Hex(raw)) !== patch.resultSha256) throw new Error("the patched database is not the manifest's");
  return raw;
}
