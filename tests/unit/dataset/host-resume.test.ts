/**
 * The dataset host over a server that cuts its downloads: the previous dataset keeps answering through every
 * failure of a new one (a cut, a corrupt file, a server gone), the next load resumes where the cut left it, and
 * a page's fetch() for a dataset still on its way is answered 503 with Retry-After at once while the app's
 * own request waits for it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DatasetHost, type LoadProgress } from '../../../dataset/host/index.ts';
import { sha256Hex, type DatasetArtifact, type Manifest } from '../../../dataset/artifact/format.ts';
import { requestedRange } from '../../../dataset/artifact/byte-range.ts';
import { memoryPartialStore } from '../../../dataset/artifact/partial-store.ts';
import { loadSqlJs } from '../../../adapters/node/datasets/sqljs-node.ts';
import { gzipDatabase } from '../../../adapters/node/datasets/dataset-writer.ts';
import { built, type BuiltFile as Built } from '../helpers/built-file.ts';
import { generatedDatabase } from '../../../harness/engine.ts';

/** What this file serves of a build: the bytes and their manifest entry. */
type BuiltFile = Pick<Built, 'gz' | 'artifact'>;
import { datasetLines } from '../../../ui/components/app-shell/download-text.ts';
import { brotliDatabase } from '../../../adapters/node/datasets/dataset-writer.ts';
import { brotliDecompressSync } from 'node:zlib';

const DATA = 'https://app.example/data/';
const WEBSITES_URL = '/websites?limit=1';
const RATES_URL = '/api/v3/search/ceilingrates/?page=1';

let websitesV1: BuiltFile;
let websitesV2: BuiltFile;
let rates: BuiltFile;
beforeAll(async () => {
  [websitesV1, websitesV2, rates] = await Promise.all([built('websites', 30), built('websites', 400), built('ceilingrates', 40)]);
});

/** A server of one deployment at a time, with Range, that can cut its next dataset body, hold one back, or be gone. */
function server() {
  let files: BuiltFile[] = [];
  let version = '';
  const state = {
    cutAfter: null as number | null,
    gone: false,
    held: null as Promise<void> | null,
    requests: [] as { path: string; range: string | null; sent: number }[],
  };
  return {
    state,
    deploy(next: BuiltFile[], v: string) {
      files = next;
      version = v;
    },
    fetch: async (url: string, init: RequestInit): Promise<Response> => {
      if (state.gone) throw new TypeError('Failed to fetch');
      const path = url.slice(DATA.length);
      if (path === 'manifest.json') {
        // The transfer copies (.br) are served beside the artifacts that name them.
        const manifest: Manifest = {
          version,
          datasets: Object.fromEntries(files.filter((f) => f.artifact.file.endsWith('.gz')).map((f) => [f.artifact.name, f.artifact])),
        };
        return new Response(JSON.stringify(manifest));
      }
      const file = files.find((f) => f.artifact.file === path);
      if (!file) return new Response('missing', { status: 404 });
      if (path.startsWith('websites')) await state.held;
      const range = new Headers(init.headers).get('range');
      const asked = requestedRange(range, file.gz.length);
      if (asked === 'unsatisfiable') return new Response(null, { status: 416 });
      const start = asked ? asked.start : 0;
      const entry = { path, range, sent: 0 };
      state.requests.push(entry);
      const cut = state.cutAfter;
      state.cutAfter = null;
      let at = start;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (cut !== null && entry.sent >= cut) return controller.error(new TypeError('network error'));
          if (at >= file.gz.length) return controller.close();
          const end = Math.min(at + 4096, file.gz.length, cut === null ? Infinity : at + cut - entry.sent);
          controller.enqueue(file.gz.slice(at, end));
          entry.sent += end - at;
          at = end;
        },
      });
      const headers: Record<string, string> = asked ? { 'content-range': `bytes ${start}-${file.gz.length - 1}/${file.gz.length}` } : {};
      return new Response(body, { status: asked ? 206 : 200, headers });
    },
  };
}

function hostOver(fake: ReturnType<typeof server>, partials = memoryPartialStore()) {
  const progress: LoadProgress[] = [];
  const host = new DatasetHost({
    sqlJs: loadSqlJs,
    fetch: fake.fetch,
    imports: { activeImports: async () => ({}), readImport: async () => null },
    partials,
    log: () => {},
  });
  return { host, progress, partials };
}

async function websitesCount(host: DatasetHost): Promise<number> {
  const answer = await host.handle({ method: 'GET', url: WEBSITES_URL });
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { meta: { totalItems: number } }).meta.totalItems;
}

describe('a new dataset version whose download fails', () => {
  it('keeps the previous one answering through a cut, a corrupt file and a lost server; the next reload resumes and swaps in', async () => {
    const fake = server();
    fake.deploy([websitesV1, rates], 'v1');
    const { host, partials } = hostOver(fake);
    const progress: LoadProgress[] = [];
    await host.init({ dataUrl: DATA, first: 'websites' }, (p) => progress.push(p));
    expect(await websitesCount(host)).toBe(30);

    // Cut at a third of the new file.
    fake.deploy([websitesV2, rates], 'v2');
    const third = Math.floor(websitesV2.artifact.bytes / 3);
    fake.state.cutAfter = third;
    let status = await host.reload();
    const websites = () => status.datasets.find((d) => d.name === 'websites')!;
    expect(websites().sha256).toBe(websitesV1.artifact.sha256);
    expect(websites().error).toMatch(/network error/);
    expect(await websitesCount(host)).toBe(30);
    expect((await partials.read(websitesV2.artifact)).length).toBe(third);

    // The server is gone: nothing changes, and what was kept stays for later.
    fake.state.gone = true;
    status = await host.reload().catch(() => host.status());
    expect(await websitesCount(host)).toBe(30);
    expect((await partials.read(websitesV2.artifact)).length).toBe(third);
    fake.state.gone = false;

    // Back: the next reload asks for the rest only, and swaps the checked file in.
    fake.state.requests.length = 0;
    progress.length = 0;
    status = await host.reload();
    expect(fake.state.requests.map((r) => r.range)).toEqual([`bytes=${third}-`]);
    // The progress said where it resumed, in the words the page shows.
    const resumed = progress.find((p) => p.datasets?.websites?.resumedAt === third)!;
    expect(resumed.datasets!.websites).toEqual({ phase: 'download', received: third, total: websitesV2.artifact.bytes, resumedAt: third });
    expect(datasetLines(resumed).find((l) => l.name === 'websites')!.text).toBe(
      `The websites are still on their way: Resuming at ${(third / 1024).toFixed(1)} of ${(websitesV2.artifact.bytes / 1024).toFixed(1)} KB.`,
    );
    expect(fake.state.requests[0].sent).toBe(websitesV2.artifact.bytes - third);
    expect(websites()).toMatchObject({ sha256: websitesV2.artifact.sha256, error: null });
    expect(await websitesCount(host)).toBe(400);
  });

  it('a file that arrives corrupt is never swapped in: the previous one answers, and nothing of it is kept', async () => {
    const fake = server();
    fake.deploy([websitesV1, rates], 'v1');
    const { host, partials } = hostOver(fake);
    await host.init({ dataUrl: DATA, first: 'websites' });
    const corrupt = { ...websitesV2, gz: websitesV2.gz.slice() };
    corrupt.gz[100] ^= 0xff;
    fake.deploy([{ gz: corrupt.gz, artifact: websitesV2.artifact }, rates], 'v2');
    const status = await host.reload();
    expect(status.datasets.find((d) => d.name === 'websites')).toMatchObject({
      sha256: websitesV1.artifact.sha256,
      error: expect.stringMatching(/sha256 mismatch/),
    });
    expect(await websitesCount(host)).toBe(30);
    expect((await partials.read(websitesV2.artifact)).length).toBe(0);
  });
});

describe('while a dataset is on its way', () => {
  it("a page's fetch() gets the API's own 503 with Retry-After at once; the other dataset answers; the app's request waits", async () => {
    const fake = server();
    fake.deploy([websitesV1, rates], 'v1');
    let release!: () => void;
    fake.state.held = new Promise<void>((resolve) => (release = resolve));
    const { host } = hostOver(fake);
    const progress: LoadProgress[] = [];
    const loading = host.init({ dataUrl: DATA, first: 'ceilingrates' }, (p) => progress.push(p));
    const rateAnswer = await host.handle({ method: 'GET', url: RATES_URL }, { whileArriving: 'unavailable' });
    expect(rateAnswer.status).toBe(200);
    // The rates are here, the websites still on their way, and the progress says so.
    const last = progress.at(-1)!;
    expect(last.datasets?.ceilingrates?.phase).toBe('ready');
    expect(last.datasets?.websites?.phase).not.toBe('ready');
    const unavailable = await host.handle({ method: 'GET', url: WEBSITES_URL }, { whileArriving: 'unavailable' });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(unavailable.body)).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
    const waiting = host.handle({ method: 'GET', url: WEBSITES_URL });
    release();
    expect((await waiting).status).toBe(200);
    await loading;
    expect((await host.handle({ method: 'GET', url: WEBSITES_URL }, { whileArriving: 'unavailable' })).status).toBe(200);
  });

  it("downloads one file at a time, the first view's first", async () => {
    const fake = server();
    fake.deploy([websitesV1, rates], 'v1');
    let release!: () => void;
    fake.state.held = new Promise<void>((resolve) => (release = resolve));
    const { host } = hostOver(fake);
    const loading = host.init({ dataUrl: DATA, first: 'websites' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The rates wait for the websites' download (held back by the server).
    expect(fake.state.requests.map((r) => r.path)).toEqual([]);
    release();
    await loading;
    expect(fake.state.requests.map((r) => r.path)).toEqual(['websites.sqlite.gz', 'ceilingrates.sqlite.gz']);
  });
});

describe('the smaller transfer copy', () => {
  it('is what a context with its decoder downloads, checks and opens; one without it downloads the gzip file', async () => {
    const db = await generatedDatabase('websites', 50);
    const raw = db.export();
    db.close();
    const gz = gzipDatabase(raw);
    const br = brotliDatabase(raw);
    const artifact: DatasetArtifact = {
      ...websitesV1.artifact,
      bytes: gz.length,
      rawBytes: raw.length,
      sha256: await sha256Hex(gz),
      rows: { websites: 50 },
      transfer: { file: 'websites.sqlite.br', encoding: 'br', bytes: br.length, sha256: await sha256Hex(br) },
    };
    const fake = server();
    fake.deploy([{ gz, artifact }, { gz: br, artifact: { ...artifact, file: 'websites.sqlite.br' } }, rates], 'v1');
    const decoded: number[] = [];
    const host = new DatasetHost({
      sqlJs: loadSqlJs,
      fetch: fake.fetch,
      imports: { activeImports: async () => ({}), readImport: async () => null },
      decoders: {
        // Fed as the file arrives; decoded at the end, recording how many bytes it was given.
        br: async () => {
          const pushed: Uint8Array[] = [];
          return {
            push: (bytes) => void pushed.push(bytes.slice()),
            finish: () => {
              const all = Buffer.concat(pushed);
              decoded.push(all.length);
              return new Uint8Array(brotliDecompressSync(all));
            },
            free: () => {},
          };
        },
      },
      log: () => {},
    });
    const status = await host.init({ dataUrl: DATA, first: 'websites' });
    expect(fake.state.requests.map((r) => r.path)).toEqual(['websites.sqlite.br', 'ceilingrates.sqlite.gz']);
    expect(decoded).toEqual([br.length]);
    expect(status.datasets.find((d) => d.name === 'websites')).toMatchObject({ bytes: br.length, sha256: artifact.sha256, error: null });
    expect(await websitesCount(host)).toBe(50);

    const plain = hostOver(fake).host;
    fake.state.requests.length = 0;
    await plain.init({ dataUrl: DATA, first: 'websites' });
    expect(fake.state.requests.map((r) => r.path)).toEqual(['websites.sqlite.gz', 'ceilingrates.sqlite.gz']);
    expect(await websitesCount(plain)).toBe(50);
  });
});
