/**
 * Every API request the README, the manual (app.md, clients.md) and the API reference show in a code block is
 * answered over the default data (the real 2025-06-09 snapshot and the real rates of GSA's 2025 price lists, as
 * `npm start` builds them), in both dialects, and where a block shows a figure the answer has it. The requests are read from the Markdown: `fetch('…')`,
 * `fetch(`${api}/…`)`, curl and Python URLs on the local server, `"$API/…"`. site-scanning.md and ceiling-rates.md
 * have their own tests, which check their tables and JSON too (tests/unit/*\/docs-examples.test.ts), and so has
 * snapshots.md (tests/unit/site-scanning/snapshots-docs.test.ts: its weeks against the shipped weeks).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../engine/index.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { NEWEST_WEEK } from '../../../tools/site-scanning-source/shipped-weeks.ts';
import { realRates, realWeek } from '../../../harness/real-fixtures.ts';

const ROOT = new URL('../../../', import.meta.url);
/** The pages read here: the README, the manual's pages that show requests, and every page of the API reference not read elsewhere. */
const OWN_TESTS = new Set(['site-scanning.md', 'ceiling-rates.md', 'snapshots.md']);
const PAGES = [
  'README.md',
  'docs/app.md',
  'docs/clients.md',
  ...readdirSync(new URL('docs/api/', ROOT))
    .filter((name) => name.endsWith('.md') && !OWN_TESTS.has(name))
    .map((name) => `docs/api/${name}`),
];

interface Example {
  page: string;
  request: string;
  /** The code block, for the figures it shows. */
  block: string;
}

/** The requests of one page's code blocks, as paths with their query. */
export function examplesOf(page: string): Example[] {
  const text = readFileSync(new URL(page, ROOT), 'utf8');
  const found: Example[] = [];
  for (const [, block] of text.matchAll(/```(?:js|sh|python)\n([\s\S]*?)```/g)) {
    const requests = [
      ...[...block.matchAll(/fetch\(\s*'(\/[^']*)'(?:\s*\+\s*encodeURIComponent\('([^']*)'\))?/g)].map((m) => m[1] + (m[2] ? encodeURIComponent(m[2]) : '')),
      ...[...block.matchAll(/fetch\(\s*`\$\{api\}(\/[^`]*)`/g)].map((m) => m[1]),
      ...[...block.matchAll(/https?:\/\/localhost:4173(\/[^'"\s)]*)/g)].map((m) => m[1]),
      ...[...block.matchAll(/"\$API(\/[^"]+)"/g)].map((m) => m[1]),
    ];
    for (const request of requests) found.push({ page, request, block });
  }
  return found;
}

const EXAMPLES = PAGES.flatMap(examplesOf);

let engine: Engine;
beforeAll(async () => {
  const SQL = await loadSqlJs();
  engine = createEngine();
  engine.use('websites', (await realWeek(SQL, NEWEST_WEEK)).db);
  engine.use('ceilingrates', (await realRates(SQL)).db);
});

describe('the examples of the README and the API reference', () => {
  it('are found: both APIs, every page that shows a request', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(12);
    expect(new Set(EXAMPLES.map((e) => e.page))).toEqual(new Set(['docs/app.md', 'docs/clients.md', 'docs/api/README.md']));
    expect(EXAMPLES.some((e) => e.request.includes('ceilingrates'))).toBe(true);
    expect(EXAMPLES.some((e) => e.request.startsWith('/technology/site-scanning/v1/'))).toBe(true);
  });

  it.each(EXAMPLES.map((e) => [`${e.page}: ${e.request}`, e] as const))('%s answers 200 in both dialects', (_, { request }) => {
    for (const dialect of ['interface', 'production'] as const) {
      const answer = engine.handle({ method: 'GET', url: request, dialect });
      expect(answer.status, `${dialect}: ${answer.body.slice(0, 300)}`).toBe(200);
      const body = JSON.parse(answer.body);
      // Something is found: a page of websites, a website, counts, or rates.
      const found = body.items?.length ?? body.hits?.total?.value ?? body.total ?? (body.initial_domain || body.target_url ? 1 : 0);
      expect(found, `${dialect} ${request}`).toBeGreaterThan(0);
    }
  });

  it('shows the figures the default data answers', () => {
    // clients.md: the Python example prints the first page's meta.
    const python = EXAMPLES.find((e) => e.block.includes("print(page['meta'])"))!;
    const shown = /# (\{.*\})/.exec(python.block)![1].replaceAll("'", '"');
    expect(JSON.parse(engine.handle({ method: 'GET', url: python.request }).body).meta).toEqual(JSON.parse(shown));
  });

  it("the production dialect's examples show what it answers", () => {
    const production = EXAMPLES.filter((e) => e.block.includes('--dialect production'));
    expect(production.length).toBeGreaterThanOrEqual(2);
    for (const { request, block } of production) {
      const line = block.split('\n').find((l) => l.includes(request))!;
      const shown = [...(line.split('#')[1] ?? '').matchAll(/"(\w+)":"([^"]*)"/g)];
      expect(shown.length, line).toBeGreaterThan(0);
      const body = JSON.parse(engine.handle({ method: 'GET', url: request, dialect: 'production' }).body);
      const record = body.hits?.hits[0]._source ?? body;
      for (const [, key, value] of shown) expect(record[key], `${request} ${key}`).toBe(value);
    }
  });
});
