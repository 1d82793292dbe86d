/** An opened database into a Node door's engine: a dataset's own, or the attachment prepared beside it (its weeks). */
import type { Database } from 'sql.js';
import type { Engine } from '../../../engine/index.ts';
import type { DatasetName } from '../../../engine/http/types.ts';
import { attachmentOf } from '../../../engine/dataset-registry.ts';
import { nodeBrotli } from './brotli-sync.ts';

export interface Installable {
  name: DatasetName;
  db: Database;
  /** The bind its API prepared (`ApiDefinition.prepared`), or null. */
  prepared: Uint8Array | null;
  /** A real week's date, so its dated paths are answered too. */
  snapshot?: string | null;
  /** Set for an attachment (engine/dataset-registry.ts). */
  attachment?: string | null;
}

export function installOpened(engine: Engine, { name, db, prepared, snapshot = null, attachment = null }: Installable): void {
  if (attachment === null) return engine.use(name, db, prepared, snapshot);
  const found = attachmentOf(attachment);
  if (!found) throw new Error(`no dataset has the attachment ${attachment}`);
  engine.attach(name, found.attachment.open(db, nodeBrotli));
}
