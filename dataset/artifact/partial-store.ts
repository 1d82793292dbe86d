import type { DatasetArtifact } from './format.ts';
import { joinBytes } from './join-bytes.ts';

/**
 * The chunks of a dataset download kept as they arrive, so a cut download resumes where it stopped: each
 * chunk is written whole under the artifact's sha256 and its offset, and `read` returns the unbroken run of
 * chunks from offset 0 (a chunk that is missing, short or torn ends the run there). Nothing read from here is
 * trusted: the whole file is checked against the manifest (size and sha256) before it is used.
 */
export interface PartialStore {
  /** The bytes kept from offset 0 for this artifact (empty when none). */
  read(artifact: DatasetArtifact): Promise<Uint8Array>;
  /** Keep `bytes`, received at `offset`, of this artifact (and drop what is kept of other artifacts of the dataset). */
  write(artifact: DatasetArtifact, offset: number, bytes: Uint8Array): Promise<void>;
  /** Forget what is kept of this artifact (it completed, or what was kept proved wrong). */
  clear(artifact: DatasetArtifact): Promise<void>;
}

/** A chunk's name: the artifact (dataset and sha256) and the offset, padded so names sort by offset. */
export function partialChunkName(artifact: Pick<DatasetArtifact, 'name' | 'sha256'>, offset: number): string {
  return `${artifact.name}.${artifact.sha256}.${String(offset).padStart(12, '0')}.part`;
}

/** The offset a chunk name holds for this artifact, or null for another artifact's chunk or another file. */
export function partialChunkOffset(fileName: string, artifact: Pick<DatasetArtifact, 'name' | 'sha256'>): number | null {
  const prefix = `${artifact.name}.${artifact.sha256}.`;
  if (!fileName.startsWith(prefix) || !fileName.endsWith('.part')) return null;
  const offset = Number(fileName.slice(prefix.length, -'.part'.length));
  return Number.isSafeInteger(offset) ? offset : null;
}

/** The unbroken run of chunks from offset 0, given the kept chunks by offset. */
export function joinChunks(chunks: ReadonlyMap<number, Uint8Array>): Uint8Array {
  const run: Uint8Array[] = [];
  let next = 0;
  for (;;) {
    const chunk = chunks.get(next);
    if (!chunk || chunk.length === 0) break;
    run.push(chunk);
    next += chunk.length;
  }
  return joinBytes(run, next);
}

/** Chunks in memory: for Node (a process keeps nothing between runs) and the tests. */
export function memoryPartialStore(): PartialStore & { chunks: Map<string, Uint8Array> } {
  const chunks = new Map<string, Uint8Array>();
  const of = (artifact: DatasetArtifact) => {
    const found = new Map<number, Uint8Array>();
    for (const [name, bytes] of chunks) {
      const offset = partialChunkOffset(name, artifact);
      if (offset !== null) found.set(offset, bytes);
    }
    return found;
  };
  return {
    chunks,
    read: async (artifact) => joinChunks(of(artifact)),
    async write(artifact, offset, bytes) {
      for (const name of chunks.keys())
        if (name.startsWith(`${artifact.name}.`) && !name.startsWith(`${artifact.name}.${artifact.sha256}.`)) chunks.delete(name);
      chunks.set(partialChunkName(artifact, offset), bytes.slice());
    },
    async clear(artifact) {
      for (const offset of of(artifact).keys()) chunks.delete(partialChunkName(artifact, offset));
    },
  };
}
