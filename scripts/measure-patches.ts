/**
 * Patch sizes on the real weekly Site Scanning snapshots (decision 0407), from a fetched copy of the snapshot
 * repository (tools/site-scanning-source):
 *   npx tsx scripts/measure-patches.ts --git <bare git dir> 2025-06-02 2025-06-09 [more dates]
 * Each week is built as the build ships a snapshot (the import core, then the shipped form), without the shipped
 * file's first-week history table; each consecutive pair gets a patch (tools/binary-diff.ts) and both it and the
 * newer file are Brotli-encoded as the build does. Prints bytes, and the time to make and to apply each patch.
 * Writes each week's database under .tmp/ and reuses it on the next run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadSqlJs } from '../adapters/node/sqljs-node.ts';
import { historyWeeks, weekRecords } from '../tools/site-scanning-source/history.ts';
import { importIntoDatabase } from '../dataset/import/index.ts';
import { toShippedForm } from '../tools/shipped-form.ts';
import { makePatch } from '../tools/binary-diff.ts';
import { brotliDatabase } from '../adapters/node/dataset-writer.ts';
import { applyPatch } from '../dataset/artifact/binary-patch.ts';

const { values, positionals } = parseArgs({ options: { git: { type: 'string' } }, allowPositionals: true });
if (!values.git || positionals.length < 2) throw new Error('usage: npx tsx scripts/measure-patches.ts --git <bare git dir> DATE DATE [DATE…]');
const git = values.git;
mkdirSync('.tmp', { recursive: true });

const SQL = await loadSqlJs();
const weeks = historyWeeks(git);

async function weekDatabase(date: string): Promise<Uint8Array> {
  const file = `.tmp/site-scanning-week-${date}.sqlite`;
  if (existsSync(file)) return new Uint8Array(readFileSync(file));
  const week = weeks.find((w) => w.date === date);
  if (!week) throw new Error(`no weekly snapshot of ${date} (weeks: ${weeks.map((w) => w.date).join(' ')})`);
  const records = [...weekRecords(git, week).values()];
  const { db } = await importIntoDatabase(SQL, new TextEncoder().encode(JSON.stringify(records)), {
    name: `site-scanning-${date}.json`,
    format: 'websites-json',
    snapshotDate: date,
  });
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
