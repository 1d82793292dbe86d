import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startImport, type AnyImportRun, type ImportOptions } from '../../../dataset/import/import.ts';
import type { ImportReport, ValueNote } from '../../../dataset/import/report.ts';
import type { ImportSource } from '../../../dataset/import/source.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/import/', import.meta.url));

/** A fixture's bytes, as a dropped file would give them. */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(FIXTURES + name));
}

export function fixtureText(name: string): string {
  return readFileSync(FIXTURES + name, 'utf8');
}

/** The text in chunks of `size` characters: exercises rows and quoted cells split across chunks. */
export async function* inChunks(textValue: string, size: number): AsyncGenerator<string> {
  for (let at = 0; at < textValue.length; at += size) yield textValue.slice(at, at + size);
}

/** Every record of an import, in order, with the finished report. */
export async function readAll(source: ImportSource, options: ImportOptions = {}): Promise<{ run: AnyImportRun; records: any[]; report: ImportReport }> {
  const run = await startImport(source, { now: new Date('2026-09-01T12:00:00Z'), ...options });
  const records: any[] = [];
  for await (const batch of run.batches as AsyncIterable<unknown[]>) records.push(...batch);
  return { run, records, report: run.report };
}

/** The report's note for a field and kind, or undefined. */
export function noteOf(report: ImportReport, field: string, kind: string): ValueNote | undefined {
  return report.values.find((note) => note.field === field && note.kind === kind);
}
