/**
 * The default build's ceiling rates (real: GSA's 2025 MAS price lists, 103,307 rates) for the benchmark, as the
 * app and `npm start` open them: the built file when the data directory holds it, else built here the same way.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Database, SqlJsStatic } from 'sql.js';
import type { Manifest } from '../../dataset/artifact/format.ts';
import { gsaRatesDatabase } from '../../tools/real-data.ts';
import { toShippedForm } from '../../tools/shipped-form.ts';

export function realRatesDatabase(SQL: SqlJsStatic, dataDir: string, log: (line: string) => void): { db: Database; data: string } {
  const manifestPath = join(dataDir, 'manifest.json');
  const artifact = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest).datasets.ceilingrates : undefined;
  if (artifact?.source?.kind === 'real') {
    log(`real rates: ${join(dataDir, artifact.file)}`);
    return { db: new SQL.Database(gunzipSync(readFileSync(join(dataDir, artifact.file)))), data: artifact.source.label };
  }
  // A small or synthetic build in the directory is not the default's real data: build it as the default build does.
  log(`real rates: ${dataDir} holds no default build; building them from data/`);
  const { db, source } = gsaRatesDatabase(SQL);
  toShippedForm(db, 'ceilingrates');
  return { db, data: source.label };
}
