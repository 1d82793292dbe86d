import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildNodeTypes } from '../../../tools/build-node.ts';
import { ROOT } from './cli-process.ts';

let project: string;

beforeAll(() => {
  buildNodeTypes();
  // A project of its own, with this package installed under its name (a link, as `npm install ../path` makes).
  project = mkdtempSync(join(tmpdir(), 'doors-consumer-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules/offline-gov-api'), 'dir');
  cpSync(resolve(ROOT, 'tests/fixtures/consumer/main.ts'), join(project, 'main.ts'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'prototype', private: true, type: 'module' }));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types: [],
        typeRoots: [resolve(ROOT, 'node_modules/@types')],
      },
      files: ['main.ts'],
    }),
  );
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the package for a TypeScript project', () => {
  it('its exports carry types: a consumer type-checks, and its deliberate mistakes are caught', () => {
    const tsc = spawnSync(process.execPath, [resolve(ROOT, 'node_modules/typescript7/bin/tsc'), '-p', project], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});
