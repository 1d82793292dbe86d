/**
 * Soak (issue 7): many mixed API requests through the service worker in Chromium, with the JS heap of the
 * page, the DB worker and the service worker sampled over CDP (after a forced GC) as they go.
 *   npm run soak -- [--requests 10000] [--warmup 1000] [--profile small|default] [--dist DIR]
 * Every answer is checked against the engine run in Node over the same dataset files (status and body,
 * `took` aside). Fails (exit 1) on any wrong answer or on heap growth over 10% from the end of the warm-up.
 * Also reports the DB worker's whole memory (JS heap, ArrayBuffers, sql.js's wasm memory) against the size of
 * the databases it serves.
 * Writes the figures to .tmp/soak.json.
 */
import { untilDatasetsOpen } from '../harness/browsers/page-until.ts';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import { assemblePublicDir, buildApp } from '../harness/browsers/build-app.ts';
import type { CDPSession, Page } from 'playwright-core';
import { launchBrowser } from '../harness/browsers/browser.ts';
import { startStaticServer } from '../harness/browsers/pwa-server.ts';
import { openAppUntilOfflineReady, referenceEngine, servedBy } from '../harness/browsers/pwa-helpers.ts';
import { Random } from '../tools/random.ts';
import type { Engine } from '../engine/index.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '10000' },
    warmup: { type: 'string', default: '1000' },
    profile: { type: 'string', default: 'small' },
    dist: { type: 'string' },
    batch: { type: 'string', default: '250' },
    concurrency: { type: 'string', default: '6' },
    seed: { type: 'string', default: '7701' },
    // Diagnostic: `direct` asks the DB client (Comlink) instead of fetch(), leaving the service worker out.
    via: { type: 'string', default: 'fetch' },
  },
});
const TOTAL = Number(values.requests);
const WARMUP = Number(values.warmup);
const BATCH = Number(values.batch);
const CONCURRENCY = Number(values.concurrency);
const LIMIT = 0.1;
const RATES = '/api/v3/search/ceilingrates/';

/** Build the datasets and the app (production mode) into .tmp, as the browser tests do. */
async function buildSoakApp(profile: string): Promise<string> {
  const dataDir = resolve(ROOT, `.tmp/soak-data-${profile}`);
  const publicDir = resolve(ROOT, '.tmp/soak-public');
  const outDir = resolve(ROOT, '.tmp/soak-dist');
  const data = spawnSync('npx', ['tsx', 'tools/build-data.ts', '--profile', profile, '--out', dataDir], { cwd: ROOT, stdio: 'inherit' });
  if (data.status !== 0) throw new Error(`data build failed (exit ${data.status})`);
  assemblePublicDir(publicDir, dataDir);
  await buildApp({ outDir, publicDir });
  return outDir;
}

interface SoakRequest {
  method: string;
  url: string;
}

/** Values that exist in the data, so filters and lookups hit records, read from the reference engine. */
function vocabulary(engine: Engine) {
  const json = (url: string) => JSON.parse(engine.handle({ method: 'GET', url }).body);
  const sites = json('/websites?limit=100').items as { target_url: string; target_url_agency_owner: string | null; target_url_domain: string }[];
  const hits = json(`${RATES}?page_size=100`).hits.hits as { _source: { labor_category: string; vendor_name: string } }[];
  const words = [...new Set(hits.flatMap((h) => h._source.labor_category.toLowerCase().split(/[^a-z]+/)).filter((w) => w.length > 3))];
  return {
    targets: sites.map((s) => s.target_url),
    agencies: [...new Set(sites.map((s) => s.target_url_agency_owner).filter((a): a is string => !!a))],
    domains: [...new Set(sites.map((s) => s.target_url_domain))],
    words,
    vendors: [...new Set(hits.map((h) => h._source.vendor_name))],
  };
}

/** A seeded mix of every endpoint and method, with errors in it (400, 404, 405, 406). */
function requestMix(engine: Engine, count: number, seed: number): SoakRequest[] {
  const v = vocabulary(engine);
  const r = new Random(seed);
  const q = (params: [string, string | number][]) => params.map(([k, x]) => `${k}=${encodeURIComponent(String(x))}`).join('&');
  const kinds: [() => SoakRequest, number][] = [
    [
      () => ({
        method: 'GET',
        url: `${RATES}?${q([
          ['keyword', r.pick(v.words)],
          ['page', r.int(1, 4)],
          ['page_size', r.pick([10, 25, 50])],
        ])}`,
      }),
      16,
    ],
    [
      () => ({
        method: 'GET',
        url: `${RATES}?${q([
          ['filter', r.pick(['education_level:BA', 'education_level:MA|PHD', 'business_size:S', 'price_range:50,150', 'experience_range:2,10'])],
          ['ordering', r.pick(['current_price', 'labor_category', 'vendor_name', 'min_years_experience'])],
          ['sort', r.pick(['asc', 'desc'])],
        ])}`,
      }),
      10,
    ],
    [() => ({ method: 'GET', url: `${RATES}?${q([['suggest-contains', `labor_category:${r.pick(v.words).slice(0, r.int(2, 4))}`]])}` }), 8],
    [() => ({ method: 'GET', url: `${RATES}?${q([['suggest', `vendor_name:${r.pick(v.vendors).slice(0, r.int(1, 3))}`]])}` }), 5],
    [
      () => ({
        method: 'GET',
        url: `${RATES}?${q([
          ['keyword', r.pick(v.words)],
          ['export', 'y'],
        ])}`,
      }),
      3,
    ],
    [
      () => ({
        method: 'GET',
        url: `/websites?${q([['page', r.int(1, 5)], ['limit', r.pick([10, 25, 50])], ...(r.chance(0.5) ? [['target_url_agency_owner', r.pick(v.agencies)] as [string, string]] : []), ...(r.chance(0.3) ? [['final_url_live', r.pick(['true', 'false'])] as [string, string]] : [])])}`,
      }),
      16,
    ],
    [() => ({ method: 'GET', url: `/websites/${encodeURIComponent(r.pick(v.targets))}` }), 10],
    [() => ({ method: 'GET', url: `/analysis?${q(r.chance(0.5) ? [['target_url_domain', r.pick(v.domains)]] : [['scan_status', 'completed']])}` }), 8],
    [() => ({ method: 'HEAD', url: r.chance(0.5) ? `/websites?limit=${r.int(1, 20)}` : `${RATES}?keyword=${r.pick(v.words)}` }), 5],
    [() => ({ method: 'OPTIONS', url: RATES }), 4],
    [() => ({ method: 'GET', url: `/websites/no-such-site-${r.int(1, 1e6)}.gov` }), 4],
    [() => ({ method: r.pick(['POST', 'PUT', 'DELETE', 'PATCH']), url: r.chance(0.5) ? '/websites' : RATES }), 3],
    [
      () => ({
        method: 'GET',
        url: r.pick(['/websites?limit=abc', '/websites?page=-1', `${RATES}?page_size=0`, `${RATES}?format=xml`, `${RATES}?page=9999&page_size=500`]),
      }),
      5,
    ],
  ];
  return Array.from({ length: count }, () => r.weighted(kinds.map(([make, w]) => [make, w] as const))());
}

/** The body as compared: JSON without `took` (the real time a search took), other bodies as they are. */
function comparable(body: string, contentType: string): string {
  if (!contentType.includes('json') || body === '') return body;
  const value = JSON.parse(body) as Record<string, unknown>;
  if (value && typeof value === 'object' && 'took' in value) delete value.took;
  return JSON.stringify(value);
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** The page fetches a batch through the service worker, a few at a time; status and sha256 of each comparable body. */
function fetchBatch(page: Page, batch: SoakRequest[]): Promise<{ status: number; hash: string; error?: string }[]> {
  // No named inner functions: tsx would wrap them in a helper that does not exist in the page.
  return page.evaluate(
    async ([batch, concurrency, via]) => {
      const db = (
        document.querySelector('app-shell') as unknown as {
          db: { request(u: string, m: string): Promise<{ status: number; headers: Record<string, string>; body: string }> };
        }
      ).db;
      const out: { status: number; hash: string; error?: string }[] = new Array(batch.length);
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < batch.length) {
            const i = next++;
            try {
              let status: number;
              let type: string;
              let body: string;
              if (via === 'direct') {
                const answer = await db.request(batch[i].url, batch[i].method);
                status = answer.status;
                type = Object.entries(answer.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
                body = answer.body;
              } else {
                const response = await fetch(batch[i].url, { method: batch[i].method, cache: 'no-store' });
                status = response.status;
                type = response.headers.get('content-type') ?? '';
                body = await response.text();
              }
              if (type.includes('json') && body !== '') {
                const value = JSON.parse(body) as Record<string, unknown>;
                if (value && typeof value === 'object' && 'took' in value) delete value.took;
                body = JSON.stringify(value);
              }
              const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
              out[i] = { status, hash: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('') };
            } catch (error) {
              out[i] = { status: 0, hash: '', error: String(error) };
            }
          }
        }),
      );
      return out;
    },
    [batch, CONCURRENCY, values.via!] as const,
  );
}

/**
 * JS heap of one target over CDP. Workers are reached from the page's session with Target.attachToTarget
 * (message mode): Playwright gives no CDP session for a worker of its own.
 */
class TargetHeap {
  private nextId = 1;
  private readonly waiting = new Map<number, (result: unknown) => void>();
  private snapshotChunks: string[] = [];
  private constructor(
    readonly label: string,
    private readonly session: CDPSession,
    private readonly sessionId: string | null,
  ) {}

  static page(session: CDPSession): TargetHeap {
    return new TargetHeap('page', session, null);
  }

  static async attach(session: CDPSession, label: string, targetId: string): Promise<TargetHeap> {
    const { sessionId } = (await session.send('Target.attachToTarget', { targetId, flatten: false })) as { sessionId: string };
    const heap = new TargetHeap(label, session, sessionId);
    session.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
      if (event.sessionId !== sessionId) return;
      const message = JSON.parse(event.message) as { id?: number; method?: string; params?: { chunk: string }; result?: unknown; error?: { message: string } };
      if (message.method === 'HeapProfiler.addHeapSnapshotChunk') heap.snapshotChunks.push(message.params!.chunk);
      if (message.id === undefined) return;
      heap.waiting.get(message.id)?.(message.error ? new Error(message.error.message) : message.result);
      heap.waiting.delete(message.id);
    });
    return heap;
  }

  private async send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    if (!this.sessionId) return this.session.send(method as 'Runtime.evaluate', params as never);
    const id = this.nextId++;
    const result = new Promise<unknown>((resolve) => this.waiting.set(id, resolve));
    await this.session.send('Target.sendMessageToTarget', { sessionId: this.sessionId, message: JSON.stringify({ id, method, params }) });
    const value = await result;
    if (value instanceof Error) throw value;
    return value;
  }

  /**
   * Used JS heap after a full GC (what the target holds on to, not what it has yet to collect), and the
   * ArrayBuffer backing stores outside it (sql.js's wasm memory, where SQLite keeps pages and statements).
   */
  async used(): Promise<{ heap: number; buffers: number }> {
    await this.send('HeapProfiler.collectGarbage');
    const usage = (await this.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number };
    return { heap: usage.usedSize, buffers: usage.backingStorageSize ?? 0 };
  }

  /**
   * Bytes of the target's WebAssembly memories (sql.js's heap: SQLite's page cache and statements), which
   * V8 does not count among the ArrayBuffer backing stores: from a heap snapshot, each `WebAssembly.Memory`
   * object's ArrayBuffer and that buffer's backing store. (`Runtime.queryObjects` never answers in a worker.)
   */
  async wasmMemory(): Promise<number> {
    this.snapshotChunks = [];
    await this.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    return wasmBytesIn(JSON.parse(this.snapshotChunks.join('')) as HeapSnapshot);
  }
}

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** The backing stores of the snapshot's WebAssembly memories: Memory object → its ArrayBuffer → the buffer's data. */
function wasmBytesIn({ snapshot: { meta }, nodes, edges, strings }: HeapSnapshot): number {
  const nodeFields = meta.node_fields.length;
  const edgeFields = meta.edge_fields.length;
  const [name, type, selfSize, edgeCount] = ['name', 'type', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f));
  const [edgeType, edgeName, toNode] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f));
  const firstEdge = new Map<number, number>();
  for (let n = 0, e = 0; n < nodes.length; n += nodeFields) {
    firstEdge.set(n, e);
    e += nodes[n + edgeCount] * edgeFields;
  }
  const edgesOf = (n: number) =>
    Array.from({ length: nodes[n + edgeCount] }, (_, j) => {
      const at = firstEdge.get(n)! + j * edgeFields;
      return { type: meta.edge_types[0][edges[at + edgeType]], name: edges[at + edgeName], to: edges[at + toNode] };
    });
  const nameOf = (n: number) => strings[nodes[n + name]];
  const isObject = (n: number) => meta.node_types[0][nodes[n + type]] === 'object';
  const buffers = new Set<number>();
  for (let n = 0; n < nodes.length; n += nodeFields) {
    if (nameOf(n) !== 'Memory' || !isObject(n)) continue;
    const out = edgesOf(n);
    if (!out.some((e) => e.type === 'property' && nameOf(e.to) === 'WebAssembly.Memory')) continue;
    for (const e of out) if (nameOf(e.to) === 'ArrayBuffer' && isObject(e.to)) buffers.add(e.to);
  }
  let bytes = 0;
  for (const buffer of buffers) for (const e of edgesOf(buffer)) if (strings[e.name] === 'backing_store') bytes += nodes[e.to + selfSize];
  return bytes;
}

async function heaps(page: Page): Promise<TargetHeap[]> {
  const session = await page.context().newCDPSession(page);
  const { targetInfos } = (await session.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] };
  const worker = targetInfos.find((t) => t.type === 'worker' && /db\.worker/.test(t.url));
  const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.endsWith('/sw.js'));
  if (!worker || !sw) throw new Error(`soak: DB worker or service worker not found among ${targetInfos.map((t) => `${t.type} ${t.url}`).join(', ')}`);
  return [
    TargetHeap.page(session),
    await TargetHeap.attach(session, 'db worker', worker.targetId),
    await TargetHeap.attach(session, 'service worker', sw.targetId),
  ];
}

/**
 * Resident memory of this browser's renderer processes (Linux /proc), where the page, the DB worker (and
 * its sql.js wasm memory, which the JS heap figures leave out) and the service worker live. Reported, not
 * judged: RSS also holds what the allocator keeps after a GC.
 */
function rendererRss(userDataDir: string): number | null {
  if (!existsSync('/proc/self/status')) return null;
  const procs = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  const read = (pid: string, file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, 'utf8');
    } catch {
      return '';
    }
  };
  const parent = new Map<string, string>();
  for (const pid of procs)
    parent.set(
      pid,
      read(pid, 'stat')
        .replace(/^.*\) /s, '')
        .split(' ')[1] ?? '',
    );
  const browser = procs.find((pid) => read(pid, 'cmdline').includes(userDataDir) && !read(pid, 'cmdline').includes('--type='));
  if (!browser) return null;
  const descends = (pid: string): boolean => {
    for (let p = parent.get(pid); p && p !== '0' && p !== '1'; p = parent.get(p)) if (p === browser) return true;
    return false;
  };
  let kb = 0;
  const each: string[] = [];
  for (const pid of procs) {
    if (!read(pid, 'cmdline').includes('--type=renderer') || !descends(pid)) continue;
    const rss = Number(/VmRSS:\s+(\d+)/.exec(read(pid, 'status'))?.[1] ?? 0);
    each.push(`${pid}:${Math.round(rss / 1024)}`);
    kb += rss;
  }
  if (process.env.SOAK_RSS_EACH) console.log(`soak: renderer RSS MB by pid ${each.join(' ')}`);
  return kb * 1024;
}

const MB = (bytes: number) => Math.round((bytes / 1048576) * 100) / 100;

async function main(): Promise<number> {
  const dist = values.dist ? resolve(values.dist) : await buildSoakApp(values.profile!);
  if (!existsSync(join(dist, 'sw.js'))) throw new Error(`${dist} has no sw.js: not a production build`);
  const engine = await referenceEngine(join(dist, 'data'));
  const requests = requestMix(engine, TOTAL, Number(values.seed));
  console.log(`soak: ${TOTAL} requests (${WARMUP} warm-up), ${dist}`);
  const server = await startStaticServer(dist);
  const browser = await launchBrowser();
  try {
    const page = browser.page;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await openAppUntilOfflineReady(page, server.origin);
    await untilDatasetsOpen(page, 120_000);
    const targets = await heaps(page);
    const samples: { requests: number; heap: Record<string, number>; buffers: Record<string, number>; rss: number | null }[] = [];
    const sample = async (done: number) => {
      const heap: Record<string, number> = {};
      const buffers: Record<string, number> = {};
      for (const t of targets) ({ heap: heap[t.label], buffers: buffers[t.label] } = await t.used());
      const rss = rendererRss(browser.userDataDir);
      samples.push({ requests: done, heap, buffers, rss });
      console.log(
        `soak: ${String(done).padStart(6)} requests  ${targets.map((t) => `${t.label} ${MB(heap[t.label])} MB`).join('  ')}  (buffers: DB worker ${MB(buffers['db worker'])} MB, service worker ${MB(buffers['service worker'])} MB; renderer RSS ${rss === null ? '?' : MB(rss)} MB)`,
      );
    };
    await sample(0);
    const failures: string[] = [];
    const byStatus: Record<number, number> = {};
    /** Body bytes answered after the warm-up: what a browser-side buffer of responses would hold on to. */
    let bodyBytesAfterWarmup = 0;
    const started = performance.now();
    for (let done = 0; done < TOTAL;) {
      const batch = requests.slice(done, done + BATCH);
      const answers = await fetchBatch(page, batch);
      answers.forEach((answer, i) => {
        const request = batch[i];
        const expected = engine.handle(request);
        byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
        if (done >= WARMUP && request.method !== 'HEAD') bodyBytesAfterWarmup += Buffer.byteLength(expected.body);
        const type = Object.entries(expected.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
        const body = request.method === 'HEAD' ? '' : comparable(expected.body, type);
        if (answer.status !== expected.status || answer.hash !== sha(body)) {
          failures.push(
            `${request.method} ${request.url}: got ${answer.status}${answer.error ? ` (${answer.error})` : ''}, expected ${expected.status}${answer.status === expected.status ? ' (body differs)' : ''}`,
          );
        }
      });
      done += batch.length;
      if (done % 1000 === 0 || done === TOTAL || done === WARMUP) await sample(done);
    }
    const seconds = (performance.now() - started) / 1000;
    const base = samples.find((s) => s.requests >= WARMUP) ?? samples[0];
    const after = samples.filter((s) => s.requests > base.requests);
    const last = samples.at(-1)!;
    const growth: Record<string, { baseline: number; final: number; max: number; growth: number }> = {};
    for (const t of targets) {
      const baseline = base.heap[t.label];
      const max = Math.max(...after.map((s) => s.heap[t.label]), baseline);
      growth[t.label] = { baseline, final: last.heap[t.label], max, growth: (last.heap[t.label] - baseline) / baseline };
    }
    const total = (s: { heap: Record<string, number> }) => Object.values(s.heap).reduce((a, b) => a + b, 0);
    const totalGrowth = (total(last) - total(base)) / total(base);
    const served = await servedBy(page);
    // The DB worker's whole memory against the databases it serves (their unpacked size, from the manifest).
    const dbWorker = targets.find((t) => t.label === 'db worker')!;
    // Read with a time limit: a figure that cannot be read is reported as such, never a hung soak.
    const wasm = await Promise.race([dbWorker.wasmMemory().catch(() => NaN), new Promise<number>((resolve) => setTimeout(() => resolve(NaN), 15_000))]);
    const manifest = JSON.parse(readFileSync(join(dist, 'data/manifest.json'), 'utf8')) as { datasets: Record<string, { rawBytes: number }> };
    const databaseBytes = Object.values(manifest.datasets).reduce((n, a) => n + a.rawBytes, 0);
    const dbWorkerBytes = last.heap['db worker'] + last.buffers['db worker'] + (Number.isNaN(wasm) ? 0 : wasm);
    const overLimit = Object.entries(growth).filter(([, g]) => g.growth > LIMIT);
    const figures = {
      requests: TOTAL,
      warmup: WARMUP,
      seconds: Math.round(seconds * 10) / 10,
      perSecond: Math.round(TOTAL / seconds),
      byStatus,
      servedBy: served,
      failures: failures.length,
      pageErrors: errors,
      heapMB: Object.fromEntries(
        Object.entries(growth).map(([k, g]) => [
          k,
          { baseline: MB(g.baseline), final: MB(g.final), max: MB(g.max), growthPercent: Math.round(g.growth * 1000) / 10 },
        ]),
      ),
      totalGrowthPercent: Math.round(totalGrowth * 1000) / 10,
      buffersMB: Object.fromEntries(targets.map((t) => [t.label, { afterWarmup: MB(base.buffers[t.label]), final: MB(last.buffers[t.label]) }])),
      bodyMBAfterWarmup: MB(bodyBytesAfterWarmup),
      dbWorkerMemory: {
        heapMB: MB(last.heap['db worker']),
        buffersMB: MB(last.buffers['db worker']),
        wasmMB: Number.isNaN(wasm) ? null : MB(wasm),
        totalMB: MB(dbWorkerBytes),
        databasesMB: MB(databaseBytes),
        timesDatabases: Math.round((dbWorkerBytes / databaseBytes) * 100) / 100,
      },
      rendererRssMB: { afterWarmup: base.rss === null ? null : MB(base.rss), final: last.rss === null ? null : MB(last.rss) },
      samples: samples.map((s) => ({
        requests: s.requests,
        rssMB: s.rss === null ? null : MB(s.rss),
        buffersMB: Object.fromEntries(Object.entries(s.buffers).map(([k, b]) => [k, MB(b)])),
        heapMB: Object.fromEntries(Object.entries(s.heap).map(([k, b]) => [k, MB(b)])),
      })),
    };
    mkdirSync(resolve(ROOT, '.tmp'), { recursive: true });
    writeFileSync(resolve(ROOT, '.tmp/soak.json'), JSON.stringify(figures, null, 2) + '\n');
    console.log(
      `soak: ${TOTAL} requests in ${figures.seconds} s (${figures.perSecond}/s), statuses ${JSON.stringify(byStatus)}, served ${JSON.stringify(served)}`,
    );
    for (const [label, g] of Object.entries(figures.heapMB))
      console.log(`soak: ${label} heap ${g.baseline} MB after warm-up → ${g.final} MB at the end (max ${g.max}), ${g.growthPercent}%`);
    console.log(
      `soak: all heaps ${figures.totalGrowthPercent}%; renderer RSS ${figures.rendererRssMB.afterWarmup} → ${figures.rendererRssMB.final} MB (bodies answered meanwhile ${figures.bodyMBAfterWarmup} MB); wrong answers ${failures.length}; page errors ${errors.length}`,
    );
    const m = figures.dbWorkerMemory;
    console.log(
      `soak: DB worker memory ${m.totalMB} MB (JS heap ${m.heapMB} + array buffers ${m.buffersMB} + wasm ${m.wasmMB ?? 'not read'}) for ${m.databasesMB} MB of databases: ${m.timesDatabases}×`,
    );
    for (const f of failures.slice(0, 20)) console.log(`soak: FAIL ${f}`);
    if (failures.length || errors.length || overLimit.length) {
      if (overLimit.length) console.log(`soak: FAIL heap grew over ${LIMIT * 100}%: ${overLimit.map(([k]) => k).join(', ')}`);
      return 1;
    }
    console.log('soak: passed');
    return 0;
  } finally {
    await browser.close();
    await server.close();
  }
}

process.exitCode = await main();
