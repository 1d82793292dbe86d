/**
 * Every ceiling-rates request the documentation shows returns something over the default data: the real rates of
 * GSA's 2025 price lists, built from data/ as `npm start` builds them. The examples are
 * read from the Markdown itself, so a new example is checked without touching this test. A text that is an
 * example of matching nothing (an empty value: `filter=education_level:`) is not a request.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine/index.ts';
import { call, engineOver } from '../../../harness/engine.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { realRates } from '../../../harness/real-fixtures.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
const API = '/api/v3/search/ceilingrates/';

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

/** Query strings of the ceiling-rates examples: full URLs and `base + '?…'` in code, `search=…` and the like inline. */
function examples(): { file: string; query: string }[] {
  const found: { file: string; query: string }[] = [];
  for (const file of [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))]) {
    const text = readFileSync(file, 'utf8');
    const name = file.slice(ROOT.length);
    for (const m of text.matchAll(/(?:ceilingrates\/|base \+ ')\?([^\s"'`)<]+)/g)) found.push({ file: name, query: m[1] });
    for (const m of text.matchAll(/`((?:search|keyword|filter|suggest|suggest-contains)=[^`\s<…]+)`/g)) found.push({ file: name, query: m[1] });
  }
  // An empty value (`filter=site:`, `keyword=`) names a parameter; it is not a request.
  return found.filter(({ query }) => !/[:=]$/.test(query) && !query.includes('<'));
}

let engine: Engine;
beforeAll(async () => {
  engine = engineOver('ceilingrates', (await realRates(await loadSqlJs())).db);
}, 600_000);

describe('every documented ceiling-rates example returns hits over the real default data', () => {
  const all = examples();
  it('finds the examples (the docs do show some)', () => {
    expect(all.length).toBeGreaterThan(10);
    expect(all.map((e) => e.query)).toContain('filter=sin:54151S&filter=site:customer&page=2&page_size=100');
  });

  it.each(all)('$file: ?$query', ({ query }) => {
    const r = call(engine, `${API}?${query}`);
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    if (typeof r.body === 'string') {
      // export=y: the two metadata rows, the header, and at least one record.
      expect(r.body.split('\r\n').filter(Boolean).length).toBeGreaterThan(3);
    } else if (query.startsWith('suggest=') || query.includes('&suggest=')) {
      const lists = Object.values(r.body) as { options: unknown[] }[][];
      for (const list of lists) for (const entry of list) expect(entry.options.length).toBeGreaterThan(0);
    } else {
      expect(r.body.hits.total.value).toBeGreaterThan(0);
      // A page the example asks for holds hits (page 2 of a listing included), unless it is suggest-contains.
      if (!query.includes('suggest-contains')) expect(r.body.hits.hits.length).toBeGreaterThan(0);
    }
  });
});
