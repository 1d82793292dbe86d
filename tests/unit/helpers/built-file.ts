import { sha256Hex, type DatasetArtifact } from '../../../dataset/artifact/format.ts';
import { gzipDatabase } from '../../../adapters/node/datasets/dataset-writer.ts';
import { datasetDefinition } from '../../../engine/dataset-registry.ts';
import type { DatasetName } from '../../../engine/http/types.ts';
import { generatedDatabase } from '../../../harness/engine.ts';

/** A generated dataset as the build writes it: the database file, its gzip'd bytes and their manifest entry. */
export interface BuiltFile {
  raw: Uint8Array;
  gz: Uint8Array;
  artifact: DatasetArtifact;
}

export async function built(name: DatasetName, count: number): Promise<BuiltFile> {
  const db = await generatedDatabase(name, count);
  const raw = db.export();
  db.close();
  return builtFrom(name, raw, count);
}

/** A database file (of `rows` records) as the build writes it. */
export async function builtFrom(name: DatasetName, raw: Uint8Array, rows: number): Promise<BuiltFile> {
  const gz = gzipDatabase(raw);
  return {
    raw,
    gz,
    artifact: {
      name,
      file: `${name}.sqlite.gz`,
      bytes: gz.length,
      rawBytes: raw.length,
      sha256: await sha256Hex(gz),
      rows: { [datasetDefinition(name).tables[0]]: rows },
      source: { kind: 'synthetic', label: 'test data', profile: 'test', seed: rows },
    },
  };
}
