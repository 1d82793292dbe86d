/**
 * The package as a prototyper receives it: `npm pack` (its prepack builds the Node doors, the first visit's datasets
 * and the app), the tarball installed into an empty project from the npm registry, and each door used from there by
 * its package name, in an ES module project and in a CommonJS one: the command line (serve, mcp, review,
 * fetch-extra, copy-assets), the library with MSW's setupServer, and the types under `tsc --strict` with no
 * skipLibCheck and `module: nodenext`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from './cli-process.ts';
import { priceListXlsx } from '../../../harness/price-list-xlsx.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { s70Database } from '../../../tools/real-data.ts';
import { artifactOf, gzipDatabase } from '../../../adapters/node/datasets/dataset-writer.ts';
import type { Manifest } from '../../../dataset/artifact/format.ts';

/** The largest tarball the issue allows a prototyper to download. */
const MAX_PACKED = 25 * 1024 * 1024;

let work: string;
let project: string;
let tarball: { filename: string; size: number; entryCount: number; files: { path: string }[] };

const inProject = (...path: string[]): string => join(project, ...path);
const bin = (): string => inProject('node_modules/.bin/offline-gov-api');

function node(args: readonly string[], cwd = project): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'offline-gov-package-'));
  // --ignore-scripts would skip prepack: the build is what this test is about.
  const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  tarball = (JSON.parse(packed.slice(packed.indexOf('[\n'))) as (typeof tarball)[])[0];
  project = join(work, 'prototype');
  mkdirSync(project);
  // npm 11's `npm init -y` project: CommonJS unless it says otherwise.
  writeFileSync(inProject('package.json'), JSON.stringify({ name: 'prototype', version: '1.0.0', private: true }));
  // From the registry, or npm's cache when it holds the version (npm ci has just filled it): what is installed is the same.
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball.filename), `msw@${msw()}`], {
    cwd: project,
    stdio: 'ignore',
  });
  // The ES module half of the project: its own package.json says so.
  mkdirSync(inProject('esm'));
  writeFileSync(inProject('esm/package.json'), JSON.stringify({ type: 'module' }));
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The msw version this repository tests with: the consumer installs the same. */
function msw(): string {
  return (JSON.parse(readFileSync(resolve(ROOT, 'node_modules/msw/package.json'), 'utf8')) as { version: string }).version;
}

describe('the packed package', () => {
  it('is small enough to install in a prototype and carries only what it runs', () => {
    expect(tarball.size).toBeLessThanOrEqual(MAX_PACKED);
    const paths = tarball.files.map((f) => f.path);
    expect(paths).toContain('adapters/node/dist/bin.js');
    expect(paths).toContain('dist/index.html');
    expect(paths).toContain('dist/data/manifest.json');
    expect(paths.filter((p) => p.startsWith('dist/data/')).sort()).toEqual([
      'dist/data/ceilingrates.sqlite.br',
      'dist/data/manifest.json',
      'dist/data/websites.sqlite.br',
    ]);
    // No sources, tests, docs' history, source data or build stamps.
    expect(paths.filter((p) => /^(tests|tools|engine|dataset|ui|bench|scripts|data|harness|docs)\//.test(p) || /\.map$|stamp/.test(p))).toEqual([]);
    const manifest = JSON.parse(readFileSync(inProject('node_modules/offline-gov-api/package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.private).toBeUndefined();
    expect(Object.keys(manifest)).toEqual(expect.arrayContaining(['name', 'version', 'license', 'repository', 'exports', 'bin']));
  });

  it('serves both APIs and the app over the datasets it carries, with no build step', async () => {
    const port = 41000 + (process.pid % 2000);
    const server = spawn(bin(), ['serve', '--port', String(port), '--workers', '1'], { cwd: project, stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    server.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
    try {
      await until(() => said.includes('listening on'), server);
      const sites = (await (await fetch(`http://localhost:${port}/websites?limit=1`)).json()) as { meta: { totalItems: number } };
      expect(sites.meta.totalItems).toBe(36331);
      const rates = (await (await fetch(`http://localhost:${port}/api/v3/search/ceilingrates/?page_size=1`)).json()) as { hits: { total: { value: number } } };
      expect(rates.hits.total.value).toBe(10000);
      expect((await fetch(`http://localhost:${port}/`)).status).toBe(200);
      // The app is offered no extra the package does not hold.
      const served = (await (await fetch(`http://localhost:${port}/data/manifest.json`)).json()) as Manifest;
      expect(served.extras ?? []).toEqual([]);
    } finally {
      server.kill('SIGTERM');
    }
  });

  it('answers an MCP client over stdio', async () => {
    const mcp = spawn(bin(), ['mcp'], { cwd: project, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    mcp.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const send = (message: object): void => void mcp.stdin!.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
    try {
      send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
      send({ method: 'notifications/initialized' });
      send({ id: 2, method: 'tools/call', params: { name: 'list_websites', arguments: { limit: 1 } } });
      await until(() => out.includes('"id":2'), mcp);
      const answer = out.split('\n').find((line) => line.includes('"id":2'))!;
      expect(answer).toContain('36331');
    } finally {
      mcp.kill();
    }
  });

  it('reviews a price list against the rates it carries', () => {
    const list = inProject('list.xlsx');
    writeFileSync(
      list,
      priceListXlsx({
        contract: '47QTCA20D0001',
        vendor: 'EXAMPLE ANALYTICS LLC',
        rows: [{ title: 'Program Manager', price: 150, education: 'Bachelors', minYears: 8 }],
      }),
    );
    const { code, stdout, stderr } = node([bin(), 'review', list]);
    expect(code, stderr).toBe(0);
    // The memo's notes, then one line a row under the header: the row's own figures against the carried rates.
    const rows = stdout.split('\r\n');
    expect(rows).toContain('Vendor,EXAMPLE ANALYTICS LLC');
    expect(rows.find((line) => line.startsWith('1,'))).toMatch(/^1,Program Manager,\w*,150,BA,8,/);
  });

  it.each([
    [
      'an ES module',
      'esm/main.js',
      "import { openEngine } from 'offline-gov-api';\nimport { createHandlers } from 'offline-gov-api/msw';\nimport { setupServer } from 'msw/node';",
    ],
    [
      'a CommonJS module',
      'main.cjs',
      "const { openEngine } = require('offline-gov-api');\nconst { createHandlers } = require('offline-gov-api/msw');\nconst { setupServer } = require('msw/node');",
    ],
  ])('in %s, opens the engine and answers production URLs through MSW', (_kind, file, imports) => {
    writeFileSync(
      inProject(file),
      `${imports}
(async () => {
  const { engine } = await openEngine();
  const server = setupServer(...createHandlers(engine, { origins: ['https://api.gsa.gov'] }));
  server.listen();
  const page = await (await fetch('https://api.gsa.gov/technology/site-scanning/v1/websites?limit=1')).json();
  server.close();
  console.log(JSON.stringify(page.meta));
})();
`,
    );
    const { code, stdout, stderr } = node([file]);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ totalItems: 36331, itemCount: 1, itemsPerPage: 1, totalPages: 36331, currentPage: 1 });
  });

  it.each([
    ['an ES module', 'esm'],
    ['a CommonJS', '.'],
  ])('type-checks in %s package under tsc --strict, module nodenext, no skipLibCheck', (_kind, dir) => {
    const source = readFileSync(resolve(ROOT, 'tests/fixtures/consumer/main.ts'), 'utf8');
    const file = 'main.ts';
    // A CommonJS module has no top-level await: there, the same lines inside an async function.
    writeFileSync(inProject(dir, file), dir === 'esm' ? source : asCommonJs(source));
    writeFileSync(
      inProject(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', lib: ['ES2022', 'DOM'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: [] },
        files: [file],
      }),
    );
    const tsc = node([resolve(ROOT, 'node_modules/typescript7/bin/tsc'), '-p', inProject(dir)]);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
  });

  it("copies what a page's own MSW needs into a directory", () => {
    const into = inProject('public/offline-gov-api');
    const { code, stderr } = node([bin(), 'copy-assets', into]);
    expect(code, stderr).toBe(0);
    expect(readdirSync(into).sort()).toEqual(['brotli_dec_wasm_bg.wasm', 'data', 'sql-wasm-browser.wasm']);
    expect(readdirSync(join(into, 'data')).sort()).toEqual(['ceilingrates.sqlite.br', 'manifest.json', 'websites.sqlite.br']);
  });

  it('fetches an extra from a deployment of the app, checks it, and opens it when asked for', async () => {
    // A deployment: the package's own build plus the 2017 list as an extra, on a plain static host.
    const site = join(work, 'site');
    cpSync(inProject('node_modules/offline-gov-api/dist'), site, { recursive: true });
    const { db } = await s70Database(await loadSqlJs());
    const raw = db.export();
    db.close();
    const gz = gzipDatabase(raw, 1);
    writeFileSync(join(site, 'data/ceilingrates-s70-2017.sqlite.gz'), gz);
    const manifest = JSON.parse(readFileSync(join(site, 'data/manifest.json'), 'utf8')) as Manifest;
    const source = { kind: 'synthetic', label: 'the 2017 list, as a test deploys it', profile: 'test', seed: 0 } as const;
    const entry = await artifactOf(
      { name: 'ceilingrates', file: 'ceilingrates-s70-2017.sqlite.gz', rawBytes: raw.length, rows: { ceilingrates: 4144 }, source },
      { gz, br: null },
    );
    manifest.extras = [{ ...entry, id: 'ceilingrates-s70-2017', title: 'IT Schedule 70 price list of 2017' }];
    writeFileSync(join(site, 'data/manifest.json'), JSON.stringify(manifest));
    const host = await staticHost(site);
    try {
      const fetched = await nodeAsync([
        bin(),
        'fetch-extra',
        'ceilingrates-s70-2017',
        '--from',
        `http://127.0.0.1:${(host.address() as { port: number }).port}/`,
      ]);
      expect(fetched.code, fetched.stderr).toBe(0);
      expect(fetched.stderr).toContain('ceilingrates-s70-2017: IT Schedule 70 price list of 2017, kept in');
    } finally {
      host.close();
    }
    writeFileSync(
      inProject('esm/extra.js'),
      "import { openEngine } from 'offline-gov-api';\nconst { engine } = await openEngine({ extras: ['ceilingrates-s70-2017'] });\nconsole.log(JSON.parse(engine.handle({ method: 'GET', url: '/api/v3/search/ceilingrates/?page_size=1' }).body).hits.total.value);\n",
    );
    const opened = node(['esm/extra.js']);
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout.trim()).toBe('4144');
    expect(existsSync(inProject('node_modules/offline-gov-api/dist/data/ceilingrates-s70-2017.sqlite.gz'))).toBe(true);
  });
});

/** The consumer fixture's lines as a CommonJS module: its awaits inside an async function. */
function asCommonJs(source: string): string {
  const lines = source.split('\n');
  const imports = lines.filter((l) => l.startsWith('import '));
  const body = lines.filter((l) => !l.startsWith('import ')).map((l) => l.replace(/^export const /, 'const '));
  return `${imports.join('\n')}\nexport async function main(): Promise<number[]> {\n${body.join('\n')}\nreturn figures;\n}\n`;
}

function until(ready: () => boolean, child: ChildProcess): Promise<void> {
  return new Promise((done, fail) => {
    const timer = setInterval(() => {
      if (ready()) {
        clearInterval(timer);
        done();
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        fail(new Error(`exited ${child.exitCode}`));
      }
    }, 50);
  });
}

function nodeAsync(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd: project });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code: code ?? 1, stdout, stderr })));
}

function staticHost(root: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = join(root, decodeURIComponent(new URL(request.url!, 'http://x').pathname));
    if (!path.startsWith(root) || !existsSync(path)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(path));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}
