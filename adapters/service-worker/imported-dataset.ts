import type { DatasetName } from '../../engine/http/types.ts';
import { activeImports, keptAttachment, readImport } from '../browser/import-store.ts';
import { unpack } from '../../dataset/artifact/unpack.ts';
import type { ImportedDatabase } from './local-engine.ts';

/**
 * The database file of a dataset's active import, as the app's DB worker stored it in IndexedDB
 * (docs/decisions/0700), or null when the build's dataset is active.
 */
export async function activeImportedDatabase(dataset: DatasetName): Promise<ImportedDatabase | null> {
  const id = (await activeImports())[dataset];
  if (!id) return null;
  const stored = await readImport(id);
  if (!stored) throw new Error(`the active import ${id} is no longer stored`);
  return { raw: await unpack(stored.file, stored.meta.rawBytes), source: stored.meta.source ?? null };
}

/** The database file of an attachment's kept copy (ImportedDataset.attachment), or null when none is kept. */
export async function keptAttachmentDatabase(attachment: string): Promise<Uint8Array | null> {
  const id = await keptAttachment(attachment);
  const stored = id ? await readImport(id) : null;
  return stored ? unpack(stored.file, stored.meta.rawBytes) : null;
}
