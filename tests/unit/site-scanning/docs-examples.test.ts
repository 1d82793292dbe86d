/**
 * Every Site Scanning example of docs/api/site-scanning.md shows what the default data answers: the real snapshot
 * of 2025-06-09, built from data/ as `npm start` builds it. The requests are read from the Markdown itself (code
 * blocks, the tables of requests, the request named before each JSON answer), so a new or edited example is
 * checked without touching this test; where the docs show figures or a JSON answer, the answer must have them.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../engine/index.ts';
import { call, engineOver } from '../../../harness/engine.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { NEWEST_WEEK } from '../../../tools/site-scanning-source/shipped-weeks.ts';
import { realWeek } from '../../../harness/real-fixtures.ts';

const DOC = new URL('../../../docs/api/site-scanning.md', import.meta.url).pathname;
const text = readFileSync(DOC, 'utf8');

/** The rows of the Markdown table whose header row starts with these cells, as cell texts. */
function tableRows(...header: string[]): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => header.every((cell, i) => line.split('|')[i + 1]?.trim() === cell));
  if (start < 0) throw new Error(`no table headed ${header.join(' | ')}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const code = (cell: string): string => /`([^`]+)`/.exec(cell)?.[1] ?? '';
const figure = (cell: string): number | undefined => {
  const m = /^[\d,]+/.exec(cell);
  return m ? Number(m[0].replaceAll(',', '')) : undefined;
};

/** The requests of the js and sh code blocks: `fetch('/…')`, `fetch('/…' + encodeURIComponent('…'))`, `"$API/…"`. */
function codeRequests(): string[] {
  const found: string[] = [];
  for (const block of text.matchAll(/```(?:js|sh)\n([\s\S]*?)```/g)) {
    for (const m of block[1].matchAll(/fetch\('(\/[^']*)'(?: \+ encodeURIComponent\('([^']*)'\))?\)/g))
      found.push(m[1] + (m[2] ? encodeURIComponent(m[2]) : ''));
    for (const m of block[1].matchAll(/"\$API(\/[^"]+)"/g)) found.push(m[1]);
  }
  return found;
}

/** Each JSON block with the request it answers: a record names itself (target_url); otherwise the last request written before the block. */
function jsonAnswers(): { request: string; shown: Record<string, unknown> }[] {
  const found: { request: string; shown: Record<string, unknown> }[] = [];
  let previousEnd = 0;
  for (const m of text.matchAll(/```json\n([\s\S]*?)```/g)) {
    const before = text.slice(previousEnd, m.index);
    previousEnd = m.index + m[0].length;
    const shown = JSON.parse(m[1]) as Record<string, unknown>;
    const named = [...before.matchAll(/`(\/(?:websites|analysis)[^`]*)`/g)].at(-1)?.[1];
    const request = typeof shown.target_url === 'string' ? `/websites/${shown.target_url}` : named;
    if (!request) throw new Error(`a JSON example names no request: ${m[1].slice(0, 80)}`);
    found.push({ request, shown });
  }
  return found;
}

/** The shown object without its elisions (`"…": "…"`). */
const shownPart = (shown: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(shown).filter(([key]) => key !== '…'));

let engine: Engine;
beforeAll(async () => {
  engine = engineOver('websites', (await realWeek(await loadSqlJs(), NEWEST_WEEK)).db);
});

describe('docs/api/site-scanning.md: every example is what the default (real) data answers', () => {
  const figures = tableRows('Example request', 'Matching records', 'Records in the answer');

  it('the code examples answer with records, and each has its figures in the table after them', () => {
    const requests = codeRequests();
    expect(requests.length).toBeGreaterThanOrEqual(4);
    for (const url of requests) {
      const r = call(engine, url);
      expect(r.status, url).toBe(200);
      expect(r.body.items?.length ?? r.body.total ?? (r.body.target_url ? 1 : 0), url).toBeGreaterThan(0);
      expect(
        figures.map(([request]) => code(request)),
        url,
      ).toContain(url);
    }
  });

  it.each(figures.map(([request, matching, records]) => ({ url: code(request), matching, records })))('figures of $url', ({ url, matching, records }) => {
    const r = call(engine, url);
    expect(r.status, url).toBe(200);
    if (url.startsWith('/analysis')) expect(r.body.total).toBe(figure(matching));
    else if ('items' in r.body) {
      expect(r.body.meta.totalItems).toBe(figure(matching));
      expect(r.body.items).toHaveLength(figure(records)!);
    } else {
      expect(figure(matching)).toBe(1);
      expect(r.body.target_url).toBe(code(matching));
    }
  });

  it.each(jsonAnswers())('the JSON answer to $request', ({ request, shown }) => {
    const r = call(engine, request);
    if ('items' in shown) {
      expect(r.body.meta).toEqual(shown.meta);
      expect(r.body.links).toEqual(shown.links);
      (shown.items as Record<string, unknown>[]).forEach((item, i) => expect(r.body.items[i]).toMatchObject(shownPart(item)));
    } else if (typeof shown.target_url === 'string') {
      expect(r.status).toBe(200);
      // A record may be shown in part (its first fields, or the failed scan's nulls): what is shown is what it holds.
      expect(r.body).toMatchObject(shown);
    } else {
      expect(r.body).toEqual(shown);
      expect(r.status).toBe((shown.statusCode as number | undefined) ?? 200);
    }
  });

  it.each(tableRows('Request', 'Looks up', 'Default data'))('%s looks up %s: %s', (request, looksUp, status) => {
    const r = call(engine, code(request));
    expect(r.status).toBe(Number(status));
    if (r.status === 200) expect(r.body.target_url).toBe(code(looksUp));
  });

  it.each(tableRows('Request', '`message`'))('the 400 of %s', (request, message) => {
    const r = call(engine, `/websites${code(request)}`);
    if (message.startsWith('no error')) {
      expect(r.status).toBe(200);
      expect(r.body.meta.itemsPerPage).toBe(figure(message.replace(/^\D+/, '')));
    } else {
      expect(r.status).toBe(400);
      expect(r.body.message).toEqual(JSON.parse(code(message)));
    }
  });

  it('the links and listings written inline answer pages with records', () => {
    const inline = [...text.matchAll(/`(\/(?:websites|analysis)\?[^`<]*)`/g)].map((m) => m[1]);
    expect(inline.length).toBeGreaterThan(3);
    for (const url of inline) {
      const r = call(engine, url);
      expect(r.status, url).toBe(200);
      expect(r.body.items?.length ?? r.body.total, url).toBeGreaterThan(0);
    }
  });

  it('the 404 of another method says what the docs say', () => {
    const shown = [...text.matchAll(/Cannot (POST|PUT|DELETE|PATCH) (\/[\w/]+)/g)];
    expect(shown.length).toBeGreaterThan(0);
    for (const [message, method, path] of shown) {
      const r = call(engine, path, method);
      expect(r.status).toBe(404);
      expect(r.body.message).toBe(message);
    }
  });
});
