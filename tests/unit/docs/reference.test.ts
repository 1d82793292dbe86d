/**
 * The docs that are made or indexed: docs/cli.md's reference is what the command line's own table makes today, and
 * every decision is listed in docs/decisions/README.md and short enough to read (80 lines at most, its figures on
 * the measurements page when they are a machine's).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { CLI_DOC, currentCliDoc } from '../../../tools/docs-cli.ts';

const DECISIONS = resolve(import.meta.dirname, '../../../docs/decisions');

describe('docs/cli.md', () => {
  it('lists every command and option as the command line reads them (npm run docs:cli)', () => {
    expect(readFileSync(CLI_DOC, 'utf8')).toBe(currentCliDoc());
  });
});

describe('docs/decisions', () => {
  const files = readdirSync(DECISIONS).filter((f) => /^\d{4}-.+\.md$/.test(f));
  const index = readFileSync(resolve(DECISIONS, 'README.md'), 'utf8');

  it('indexes every decision, and only decisions that exist', () => {
    const linked = [...index.matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)].map((m) => m[1]);
    expect([...linked].sort()).toEqual([...files].sort());
  });

  it.each(files)('%s is at most 80 lines', (file) => {
    expect(readFileSync(resolve(DECISIONS, file), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(80);
  });
});
