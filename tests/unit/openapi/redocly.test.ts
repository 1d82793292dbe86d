/**
 * The OpenAPI documents as a client generator meets them: Redocly's linter (`redocly lint`, its recommended rules)
 * finds no error and no warning in any of them, in both dialects, at an origin's root and for a build under a
 * sub-path; the ceiling-rates document names its route's full path, lists production's server, and declares one
 * schema per answer form, so a generated client gets one type to read and no union to cast.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ceilingRatesDocument, OPENAPI_FILES, siteScanningDocument, type OpenApiDocument } from '../../../engine/openapi/documents.ts';
import { inProductionDialect } from '../../../engine/openapi/production.ts';
import { mountAt } from '../../../engine/http/mount.ts';

const REDOCLY = resolve(import.meta.dirname, '../../../node_modules/.bin/redocly');
const dir = mkdtempSync(join(tmpdir(), 'redocly-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

/** `redocly lint --extends recommended` over one file, as JSON. Offline: no telemetry, no update check. */
async function lint(file: string): Promise<LintReport> {
  const run = promisify(execFile);
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const { stdout } = await run(REDOCLY, ['lint', '--extends', 'recommended', '--format', 'json', file], { cwd: dir, env }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
  );
  return JSON.parse(stdout) as LintReport;
}

describe('redocly lint, recommended rules', () => {
  it('passes every document, both dialects, at the root and under /apps/gov/', { timeout: 60_000 }, async () => {
    const files: string[] = [];
    for (const mount of [mountAt('/'), mountAt('/apps/gov/')]) {
      for (const [path, make] of Object.entries(OPENAPI_FILES)) {
        const document = make({ websites: 'Real: a snapshot', ceilingrates: 'Real: price lists' }, mount);
        for (const [dialect, written] of [
          ['interface', document],
          ['production', inProductionDialect(document)],
        ] as const) {
          const file = `${mount.replaceAll('/', '_') || 'root'}-${dialect}-${path.slice(1).replaceAll('/', '_')}`;
          writeFileSync(join(dir, file), JSON.stringify(written));
          files.push(file);
        }
      }
    }
    for (const file of files) {
      const report = await lint(file);
      expect(report.problems.map((p) => `${file}: ${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    }
  });

  it("can fail: the route's path with production's trailing slash is flagged", async () => {
    const document = structuredClone(ceilingRatesDocument()) as OpenApiDocument;
    const [path] = Object.keys(document.paths);
    document.paths = { '/api/v3/search/ceilingrates/': document.paths[path] };
    writeFileSync(join(dir, 'former.json'), JSON.stringify(document));
    const report = await lint('former.json');
    expect(report.problems.map((p) => p.ruleId)).toContain('no-path-trailing-slash');
  });
});

describe('the ceiling-rates document', () => {
  const document = ceilingRatesDocument({}, mountAt('/apps/gov/'));

  it("names the route's full path and lists this app and production as its servers", () => {
    expect(Object.keys(document.paths)).toEqual(['/acquisition/calc/v3/api/ceilingrates']);
    expect(document.servers.map((s) => s.url)).toEqual(['/apps/gov', 'https://api.gsa.gov']);
    expect(siteScanningDocument().servers.map((s) => s.url)).toEqual(['/', '/technology/site-scanning/v1', 'https://api.gsa.gov/technology/site-scanning/v1']);
  });

  it('declares each answer form by one schema, no union for a client to narrow', () => {
    const responses = (
      document.paths['/acquisition/calc/v3/api/ceilingrates'].get as { responses: Record<string, { content?: Record<string, { schema: object }> }> }
    ).responses;
    const ok = responses['200'].content!;
    expect(ok['application/json'].schema).toEqual({ $ref: '#/components/schemas/CeilingRatesAnswer' });
    expect(ok['text/csv'].schema).toEqual({ type: 'string' });
    const text = JSON.stringify(document);
    expect(text).not.toContain('"oneOf"');
    const answer = document.components.schemas.CeilingRatesAnswer as { properties: Record<string, unknown>; additionalProperties: boolean };
    expect(Object.keys(answer.properties)).toEqual([
      'took',
      'timed_out',
      '_shards',
      'hits',
      'aggregations',
      'labor_category-suggestion',
      'vendor_name-suggestion',
      'idv_piid-suggestion',
    ]);
    expect(answer.additionalProperties).toBe(false);
  });
});
