/**
 * One meaning per word (docs/glossary.md): "kept" is what this device holds for offline use. A name (identifier)
 * that says kept or keep belongs to the code that holds data on the device (browser storage, the service worker,
 * the DB worker's imports, the dataset host, the storage card) or to the tests and tools that look at it; anywhere
 * else the thing has its own word (prepared, cached, selected, imported, …). Names only: comments and strings are
 * read by people and reviewed as prose.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../../..');

/** Where data is kept on the device, or looked at as kept (paths from the repository's root). */
const DEVICE_STORAGE = [
  'adapters/browser/',
  'adapters/service-worker/',
  'adapters/db-worker/',
  'adapters/node/commands/fetch-extra.ts',
  'dataset/artifact/',
  'dataset/host/',
  'dataset/feature-host.ts',
  'ui/pwa/',
  'ui/components/dataset-panel/',
  'ui/components/import/',
  'ui/components/weeks-view/weeks-load.ts',
  'harness/browsers/',
  'scripts/measure-reopen.ts',
  'scripts/measure-patch-update.ts',
  'scripts/measure-pwa.ts',
  'tests/e2e/',
  'tests/unit/dataset/',
  'tests/unit/pwa/',
  'tests/unit/import-store/',
];

const THE_WORD = /kept|keep/i;

/** Every name a file declares or uses (identifiers and private names; not comments, strings or template text). */
function names(file: string): Set<string> {
  const source = ts.createSourceFile(file, readFileSync(resolve(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) found.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = execFileSync('git', ['ls-files', '-z', '--', '*.ts'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '' && !file.endsWith('.d.ts'));

describe('one meaning per word (docs/glossary.md)', () => {
  it('reads the names of every TypeScript file', () => {
    expect(files.length).toBeGreaterThan(500);
    expect([...names('adapters/browser/kept-files.ts')]).toContain('KeptFiles');
  });

  it('says kept or keep in a name only where data is kept on this device', () => {
    const elsewhere = files
      .filter((file) => !DEVICE_STORAGE.some((area) => file.startsWith(area)))
      .flatMap((file) => [...names(file)].filter((name) => THE_WORD.test(name)).map((name) => `${file}: ${name}`));
    expect(elsewhere, 'name it with its own word from docs/glossary.md (prepared, cached, selected, imported, …)').toEqual([]);
  });
});
