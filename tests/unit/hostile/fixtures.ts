/**
 * Engines over the hostile records of tools/generate/hostile.ts: alone (exact enumeration, CSV row order), and
 * mixed into a small generated dataset (as a browser test or an import would meet them). The two also take
 * the ceiling-rates engine's two ways in: hostile-only binds by reading the text (no column table, like an
 * import), mixed binds from the build's column table, rewritten with the hostile values in it.
 */
import type { Database } from 'sql.js';
import { createEngine, type Engine } from '../../../engine/index.ts';
import { insertHostileRecords } from '../../../tools/generate/hostile.ts';
import { emptyDatabase, generatedDatabase } from '../../../harness/engine.ts';

async function hostileOnly(dataset: 'websites' | 'ceilingrates'): Promise<Database> {
  const db = await emptyDatabase(dataset);
  insertHostileRecords(db, dataset);
  return db;
}

async function hostileAmongGenerated(dataset: 'websites' | 'ceilingrates', count: number): Promise<Database> {
  const db = await generatedDatabase(dataset, count);
  insertHostileRecords(db, dataset);
  return db;
}

/** Both datasets holding only the hostile records. */
export async function hostileOnlyEngine(): Promise<Engine> {
  const engine = createEngine();
  engine.use('websites', await hostileOnly('websites'));
  engine.use('ceilingrates', await hostileOnly('ceilingrates'));
  return engine;
}

/** Both datasets: a few hundred generated records, then the hostile ones added through the schema's inserts. */
export async function hostileMixedEngine(): Promise<Engine> {
  const engine = createEngine();
  engine.use('websites', await hostileAmongGenerated('websites', 300));
  engine.use('ceilingrates', await hostileAmongGenerated('ceilingrates', 300));
  return engine;
}
