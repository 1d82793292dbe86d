/**
 * Patch sizes on the real weeks of Site Scanning (decision 0407), from the weeks data/ ships
 * (tools/site-scanning-source/shipped-weeks.ts):
 *   npx tsx scripts/measure-patches.ts 2025-06-02 2025-06-09 [more dates]
 * Each week is built as the build ships a week (the import core, then the shipped form); each consecutive pair
 * gets a patch (tools/binary-diff.ts) and both it and the newer file are Brotli-encoded as the build does. Prints bytes, and the time to make and to apply each patch.
 * Writes each week's database under .tmp/ and reuses it on the next run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadSqlJs } from '../adapters/node/datasets/sqljs-node.ts';
import { weekDatabase as importedWeek } from '../tools/site-scanning-source/shipped-weeks.ts';
import { toShippedForm } from '../tools/shipped-form.ts';
import { makePatch } from '../tools/binary-diff.ts';
import { brotliDatabase } from '../adapters/node/datasets/dataset-writer.ts';
import { applyPatch } from '../dataset/artifact/binary-patch.ts';

const { positionals } = parseArgs({ allowPositionals: true });
if (positionals.length < 2) throw new Error('usage: npx tsx scripts/measure-patches.ts DATE DATE [DATE…]');
mkdirSync('.tmp', { recursive: true });

const SQL = await loadSqlJs();

async function weekDatabase(date: string): Promise<Uint8Array> {
  const file = `.tmp/site-scanning-week-${date}.sqlite`;
  if (existsSync(file)) return new Uint8Array(readFileSync(file));
  const { db } = await importedWeek(SQL, date);
  toShippedForm(db, 'websites');
  const raw = db.export();
  db.close();
  writeFileSync(file, raw);
  return raw;
}

const rows: string[] = ['| weeks | patch (Brotli) | whole file (Brotli) | patch / whole | raw patch | make ms | apply ms |', '|---|---|---|---|---|---|---|'];
for (let i = 1; i < positionals.length; i++) {
  const [older, newer] = [await weekDatabase(positionals[i - 1]), await weekDatabase(positionals[i])];
  let started = performance.now();
  const patch = makePatch(older, newer);
  const makeMs = performance.now() - started;
  const applied: number[] = [];
  for (let run = 0; run < 3; run++) {
    started = performance.now();
    const made = applyPatch(older, patch);
    applied.push(performance.now() - started);
    if (made.length !== newer.length || !made.every((b, k) => b === newer[k])) throw new Error('the patch did not make the newer file');
  }
  const [patchBr, wholeBr] = [brotliDatabase(patch).length, brotliDatabase(newer).length];
  rows.push(
    `| ${positionals[i - 1]} → ${positionals[i]} | ${patchBr} | ${wholeBr} | ${Math.round((100 * patchBr) / wholeBr)} % | ${patch.length} | ` +
      `${makeMs.toFixed(0)} | ${applied.map((ms) => ms.toFixed(0)).join(', ')} |`,
  );
  console.log(rows.at(-1));
}
console.log(rows.join('\n'));
