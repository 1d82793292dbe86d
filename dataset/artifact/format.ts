import type { DatasetName } from '../../engine/http/types.ts';

/** One dataset file as the build writes it and the worker downloads it. */
export interface DatasetArtifact {
  name: DatasetName;
  /** File name beside the manifest, e.g. `websites.sqlite.gz`. */
  file: string;
  /** Size of the gzip'd file, the figure a download progress bar counts towards. */
  bytes: number;
  /** Size of the SQLite database once decompressed. */
  rawBytes: number;
  /** Hex sha256 of the gzip'd file, checked before it is opened. */
  sha256: string;
  /** Row count per table. */
  rows: Record<string, number>;
  /** Where the records came from. */
  source: DatasetSource;
  /**
   * A smaller copy of the same database for the browser's download (absent: the browser downloads `file`).
   * Node, the command line and other clients read `file`.
   */
  transfer?: TransferFile;
  /**
   * Patches that make this database from an earlier build's (absent: none). A browser that keeps the unpacked
   * file of artifact `from` downloads the patch instead of the whole file when it is smaller (patch-update.ts).
   */
  patches?: PatchFile[];
}

/** A patch (binary-patch.ts) from an earlier build's database to this one, Brotli-encoded. */
export interface PatchFile {
  /** sha256 of the earlier artifact (its gzip'd file): the kept unpacked file it applies to is named by it. */
  from: string;
  file: string;
  encoding: TransferFile['encoding'];
  /** Size and sha256 of the patch file, checked before it is decoded. */
  bytes: number;
  sha256: string;
  /** Size of the decoded patch. */
  patchBytes: number;
  /** sha256 of the database the patch makes: the result is used only when it matches. */
  resultSha256: string;
}

/** The same database in another encoding, checked like the artifact itself (size, then sha256). */
export interface TransferFile {
  file: string;
  encoding: 'br';
  bytes: number;
  sha256: string;
}

/** The file a browser downloads for this artifact, as an artifact of its own (its name, size and sha256). */
export function transferArtifact(
  artifact: DatasetArtifact,
  decoders: ReadonlySet<TransferFile['encoding']>,
): DatasetArtifact & { encoding: 'gzip' | TransferFile['encoding'] } {
  const t = artifact.transfer;
  if (!t || !decoders.has(t.encoding)) return { ...artifact, encoding: 'gzip' };
  return { ...artifact, file: t.file, bytes: t.bytes, sha256: t.sha256, encoding: t.encoding };
}

/**
 * Where a dataset's records came from, said wherever a user sees the dataset (the datasets view, the command
 * line's start line, the API docs, /openapi.json). `label` is that one line.
 */
export type DatasetSource =
  | { kind: 'synthetic'; label: string; profile: string; seed: number }
  | {
      kind: 'real';
      label: string;
      repository: string;
      commit: string;
      /** The data's date (YYYY-MM-DD); with `from`, the newest of a span of files (the price lists: 2025-01-28 to 2025-11-06). */
      date: string;
      from?: string;
      licence: string;
      count: number;
    };

/**
 * The data's own date as users see it: a real source's date, or its span of files (`2025-01-28 to 2025-11-06`);
 * null for generated data, which has none.
 */
export function sourceDate(source: DatasetSource | null): string | null {
  if (source?.kind !== 'real') return null;
  return source.from && source.from !== source.date ? `${source.from} to ${source.date}` : source.date;
}

/** A dataset the build made that is not downloaded on the first visit: the app fetches it when asked. */
export interface ExtraArtifact extends DatasetArtifact {
  /** Stable id, e.g. `ceilingrates-s70-2017`; a dataset's attachment has the registry's id (`websites-weeks`). */
  id: string;
  /** For a button: "IT Schedule 70 price list of 2017 (real, 4,144 rates)". */
  title: string;
}

export interface Manifest {
  /** Changes whenever any dataset's bytes change. */
  version: string;
  datasets: Partial<Record<DatasetName, DatasetArtifact>>;
  /** Built-in datasets fetched on demand, never on the first visit. */
  extras?: ExtraArtifact[];
}

export const MANIFEST_FILE = 'manifest.json';

/** Hex sha256 with WebCrypto, available in Node 20, browsers, workers and service workers. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
