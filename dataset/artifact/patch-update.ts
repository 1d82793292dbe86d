/**
 * A new version of a dataset made from the older file kept on this machine and the build's patch between them
 * (docs/decisions/0407), for whichever context downloads new versions (the DB worker's load, the service worker's
 * update install). Platform-free: the kept file, the download and the decoder are handed in.
 */
import type { DatasetArtifact, PatchFile } from './format.ts';
import { sha256Hex, transferArtifact } from './format.ts';
import { applyPatch } from './binary-patch.ts';
import { obtainArtifact, type ExclusiveLock } from './obtain.ts';
import type { PartialStore } from './partial-store.ts';
import type { DownloadProgress } from './resumable-download.ts';
import { decodable, decodeWhole, decoderFor, type Decoders } from './unpack.ts';
import { resolveDataUrl } from './manifest.ts';
import type { UnpackedStore } from './unpacked-store.ts';

export interface PatchUpdate {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  dataUrl: string;
  artifact: DatasetArtifact;
  unpacked: UnpackedStore | null;
  decoders: Decoders | null;
  partials?: PartialStore | null;
  lock?: ExclusiveLock | null;
  cache?: RequestCache;
  /** Called once a patch is chosen, before it downloads: its size is what the progress then counts. */
  onPatch?: (patch: PatchFile) => void;
  onProgress?: (progress: DownloadProgress) => void;
  /** Called once the patch is here and checked, as it is decoded and applied. */
  onApplying?: () => void;
  log?: (message: string, error: unknown) => void;
}

/** The patch to download for this artifact, given the kept file's artifact sha256: one from it, smaller than the file. */
export function usablePatch(artifact: DatasetArtifact, keptSha256: string, decoders: Decoders | null): PatchFile | null {
  const encodings = decodable(decoders);
  const whole = transferArtifact(artifact, encodings).bytes;
  return artifact.patches?.find((p) => p.from === keptSha256 && encodings.has(p.encoding) && p.bytes < whole) ?? null;
}

/**
 * The new database made from the unpacked file kept on this machine and a patch (docs/decisions/0407), or null
 * when there is none to use: no kept file, no patch from it, or a patch no smaller than the whole file. A patch
 * whose download, decoding or result does not check out is logged and null is returned: the caller downloads
 * the whole file, and the kept file is untouched either way (it is only read).
 */
export async function updateByPatch(options: PatchUpdate): Promise<Uint8Array | null> {
  const { artifact, unpacked, decoders } = options;
  if (!artifact.patches?.length || !unpacked) return null;
  const kept = await unpacked.readKept(artifact.name, (sha256) => usablePatch(artifact, sha256, decoders) !== null);
  const patch = kept && usablePatch(artifact, kept.sha256, decoders);
  if (!patch) return null;
  options.onPatch?.(patch);
  const log = options.log ?? ((text, error) => console.error(text, error));
  try {
    const file = { ...artifact, file: patch.file, bytes: patch.bytes, sha256: patch.sha256, rawBytes: patch.patchBytes };
    const { gz } = await obtainArtifact({
      fetch: options.fetch,
      url: resolveDataUrl(options.dataUrl, patch.file),
      artifact: file,
      partials: options.partials ?? null,
      lock: options.lock ?? null,
      cache: options.cache,
      onProgress: options.onProgress,
      log,
    });
    options.onApplying?.();
    const raw = applyPatch(kept.database.raw, decodeWhole(await decoderFor(patch.encoding, patch.patchBytes, decoders), gz));
    if (raw.length !== artifact.rawBytes || (await sha256Hex(raw)) !== patch.resultSha256) throw new Error("the patched database is not the manifest's");
    return raw;
  } catch (error) {
    log(`${artifact.file}: the patch from the kept copy did not apply; downloading the whole file`, error);
    return null;
  }
}
