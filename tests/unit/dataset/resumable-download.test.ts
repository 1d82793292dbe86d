/**
 * The resumable dataset download (dataset/artifact/resumable-download.ts) against a fake server: a download
 * cut at any point resumes where it stopped and completes with the manifest's sha256; kept bytes that are
 * wrong, or a server that answers the resumption wrongly, are detected and the file is downloaded again from
 * 0; a server without Range still works; the progress says where a download resumed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex, type DatasetArtifact } from '../../../dataset/artifact/format.ts';
import { memoryPartialStore, partialChunkName } from '../../../dataset/artifact/partial-store.ts';
import { downloadResumable, type DownloadProgress } from '../../../dataset/artifact/resumable-download.ts';
import { DatasetIntegrityError } from '../../../dataset/artifact/verify.ts';
import { acquireArtifact, type VerifiedFiles } from '../../../dataset/artifact/acquire.ts';
import { contentRange, requestedRange } from '../../../dataset/artifact/byte-range.ts';
import { downloadText } from '../../../ui/components/app-shell/download-text.ts';

const URL_ = 'https://app.example/data/websites.sqlite.gz';
const SIZE = 1_000_003;
const CHUNK = 64 * 1024;

let file: Uint8Array;
let artifact: DatasetArtifact;

beforeAll(async () => {
  // Bytes that do not repeat (a counter through a multiplicative hash), so any misplaced byte changes the sha256.
  file = new Uint8Array(SIZE);
  for (let i = 0; i < SIZE; i++) file[i] = (Math.imul(i + 1, 2654435761) >>> 24) & 0xff;
  artifact = {
    name: 'websites',
    file: 'websites.sqlite.gz',
    bytes: SIZE,
    rawBytes: SIZE * 3,
    sha256: await sha256Hex(file),
    rows: {},
    source: { kind: 'synthetic', label: 'test bytes', profile: 'test', seed: 1 },
  };
});

interface FakeServer {
  /** Answer Range requests (on by default). */
  ranges: boolean;
  /** Cut the next response's body after this many bytes of it (the read then fails, as a lost link does). */
  cutAfter: number | null;
  /** Replace the next 206's Content-Range (a server that resumes from the wrong place or another file). */
  contentRange: string | null;
  /** Answer the next ranged request 416. */
  unsatisfiable: boolean;
  /** The bytes served (the file, unless a test serves another). */
  body: Uint8Array;
  requests: { range: string | null; cache: RequestCache | undefined; status: number; sent: number }[];
  fetch(url: string, init: RequestInit): Promise<Response>;
}

function fakeServer(): FakeServer {
  const server: FakeServer = {
    ranges: true,
    cutAfter: null,
    contentRange: null,
    unsatisfiable: false,
    body: file,
    requests: [],
    async fetch(url, init) {
      expect(url).toBe(URL_);
      const range = new Headers(init.headers).get('range');
      const asked = server.ranges ? requestedRange(range, server.body.length) : null;
      if (range && server.unsatisfiable) {
        server.unsatisfiable = false;
        server.requests.push({ range, cache: init.cache, status: 416, sent: 0 });
        return new Response(null, { status: 416, headers: { 'content-range': `bytes */${server.body.length}` } });
      }
      if (asked === 'unsatisfiable') {
        server.requests.push({ range, cache: init.cache, status: 416, sent: 0 });
        return new Response(null, { status: 416, headers: { 'content-range': `bytes */${server.body.length}` } });
      }
      const start = asked ? asked.start : 0;
      const part = server.body.subarray(start);
      const cut = server.cutAfter;
      server.cutAfter = null;
      const entry = { range, cache: init.cache, status: asked ? 206 : 200, sent: 0 };
      server.requests.push(entry);
      let at = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (cut !== null && at >= cut) {
            controller.error(new TypeError('network error'));
            return;
          }
          const end = Math.min(at + CHUNK, part.length, cut ?? Infinity);
          if (at >= part.length) {
            controller.close();
            return;
          }
          controller.enqueue(part.slice(at, end));
          entry.sent += end - at;
          at = end;
        },
      });
      const headers: Record<string, string> = { 'content-type': 'application/gzip', 'last-modified': 'Wed, 25 Nov 2026 10:00:00 GMT' };
      if (asked) headers['content-range'] = server.contentRange ?? `bytes ${start}-${server.body.length - 1}/${server.body.length}`;
      server.contentRange = null;
      return new Response(stream, { status: asked ? 206 : 200, headers });
    },
  };
  return server;
}

function download(server: FakeServer, partials = memoryPartialStore(), progress: DownloadProgress[] = []) {
  return downloadResumable({ fetch: server.fetch, url: URL_, artifact, partials, onProgress: (p) => progress.push(p), chunkBytes: 100_000 });
}

describe('a cut download', () => {
  it.each([1, 65_536, 99_999, 100_000, 512_345, SIZE - 1])('cut after %i bytes resumes there and completes with the right sha256', async (cutAt) => {
    const server = fakeServer();
    const partials = memoryPartialStore();
    server.cutAfter = cutAt;
    // Said in the app's words (how far it got, that it resumes), the browser's own last.
    await expect(download(server, partials)).rejects.toThrow(
      `the download broke off after ${cutAt.toLocaleString('en-US')} of ${SIZE.toLocaleString('en-US')} bytes; the ${cutAt.toLocaleString('en-US')} bytes received are kept and the next try resumes from there (network error)`,
    );
    // Everything that arrived before the cut is kept, the tail of an unfinished chunk included.
    expect((await partials.read(artifact)).length).toBe(cutAt);
    const progress: DownloadProgress[] = [];
    const done = await download(server, partials, progress);
    expect(await sha256Hex(done.gz)).toBe(artifact.sha256);
    expect(done).toMatchObject({ resumedAt: cutAt, transferred: SIZE - cutAt, fileDate: '2026-11-25T10:00:00.000Z' });
    expect(server.requests.map((r) => [r.range, r.status])).toEqual([
      [null, 200],
      [`bytes=${cutAt}-`, 206],
    ]);
    // Not one byte crossed twice.
    expect(server.requests.reduce((n, r) => n + r.sent, 0)).toBe(SIZE);
    expect(progress[0]).toEqual({ received: cutAt, total: SIZE, resumedAt: cutAt });
    expect(progress.at(-1)).toEqual({ received: SIZE, total: SIZE, resumedAt: cutAt });
    // What is kept is cleared once the file is whole.
    expect((await partials.read(artifact)).length).toBe(0);
  });

  it('cut again and again, resumes each time and completes', async () => {
    const server = fakeServer();
    const partials = memoryPartialStore();
    const cuts = [150_000, 1, 400_000, 33];
    let expected = 0;
    for (const cut of cuts) {
      server.cutAfter = cut;
      await expect(download(server, partials)).rejects.toThrow('network error');
      expected += cut;
      expect((await partials.read(artifact)).length).toBe(expected);
    }
    const done = await download(server, partials);
    expect(await sha256Hex(done.gz)).toBe(artifact.sha256);
    expect(server.requests.reduce((n, r) => n + r.sent, 0)).toBe(SIZE);
  });

  it('whose context died keeps its whole chunks: the next one resumes at the last of them', async () => {
    const server = fakeServer();
    const partials = memoryPartialStore();
    server.cutAfter = 350_000;
    await expect(download(server, partials)).rejects.toThrow();
    // A context that dies writes no tail: drop the last, partial chunk as if it had never been written.
    const kept = [...partials.chunks.keys()].sort();
    partials.chunks.delete(kept.at(-1)!);
    const resumeAt = (await partials.read(artifact)).length;
    expect(resumeAt).toBeGreaterThan(0);
    expect(350_000 - resumeAt).toBeLessThanOrEqual(100_000 + CHUNK);
    const done = await download(server, partials);
    expect(done.resumedAt).toBe(resumeAt);
    expect(await sha256Hex(done.gz)).toBe(artifact.sha256);
  });

  it('a chunk missing in the middle ends what is kept there', async () => {
    const partials = memoryPartialStore();
    await partials.write(artifact, 0, file.subarray(0, 1000));
    await partials.write(artifact, 2000, file.subarray(2000, 3000));
    expect((await partials.read(artifact)).length).toBe(1000);
  });
});

describe('a resumption that does not fit', () => {
  it('kept bytes that are corrupt fail the sha256; the file is downloaded again from 0 and completes', async () => {
    const server = fakeServer();
    const partials = memoryPartialStore();
    server.cutAfter = 300_000;
    await expect(download(server, partials)).rejects.toThrow();
    const first = partials.chunks.get(partialChunkName(artifact, 0))!;
    expect(first.length).toBeGreaterThan(17);
    const chunk = first;
    chunk[17] ^= 0xff;
    const done = await download(server, partials);
    expect(await sha256Hex(done.gz)).toBe(artifact.sha256);
    expect(done.resumedAt).toBeNull();
    expect(server.requests.map((r) => [r.range, r.status])).toEqual([
      [null, 200],
      ['bytes=300000-', 206],
      [null, 200],
    ]);
  });

  it('a 206 from another place or of another length is refused before its body is read, and the file downloaded from 0', async () => {
    for (const wrong of [`bytes 0-${SIZE - 1}/${SIZE}`, `bytes 200000-${SIZE + 99}/${SIZE + 100}`, 'bytes 200000-300000/*']) {
      const server = fakeServer();
      const partials = memoryPartialStore();
      server.cutAfter = 200_000;
      await expect(download(server, partials)).rejects.toThrow();
      server.contentRange = wrong;
      const done = await download(server, partials);
      expect(await sha256Hex(done.gz)).toBe(artifact.sha256);
      expect(server.requests.map((r) => r.range)).toEqual([null, 'bytes=200000-', null]);
      expect(server.requests[1].sent).toBeLessThanOrEqual(CHUNK);
    }
  });

  it('a 416 drops the kept bytes and downloads from 0', async () => {
    const server = fakeServer();
    const partials = memoryPartialStore();
    server.cutAfter = 500_000;
    await expect(download(server, partials)).rejects.toThrow();
    server.unsatisfiable = true;
    const done = await download(server, partials);
    expect(await sha256Hex(done.gz)).toBe(artifact.sha256);
    expect(server.requests.map((r) => r.status)).toEqual([200, 416, 200]);
  });

  it('kept bytes longer than the file are dropped', async () => {
    const server = fakeServer();
    const partials = memoryPartialStore();
    await partials.write(artifact, 0, new Uint8Array(SIZE + 10));
    const done = await download(server, partials);
    expect(await sha256Hex(done.gz)).toBe(artifact.sha256);
    expect(server.requests.map((r) => r.range)).toEqual([null]);
  });

  it('a whole file kept but never swapped in is checked and used with no request', async () => {
    const server = fakeServer();
    const partials = memoryPartialStore();
    await partials.write(artifact, 0, file);
    const done = await download(server, partials);
    expect(await sha256Hex(done.gz)).toBe(artifact.sha256);
    expect(server.requests).toEqual([]);
  });
});

describe('onBytes, for a decoder fed as the file arrives', () => {
  /** The file as the listener would rebuild it: each call writes at its offset, and a call at 0 starts again. */
  function listener() {
    const calls: [number, number][] = [];
    let file = new Uint8Array(0);
    const onBytes = (bytes: Uint8Array, offset: number) => {
      calls.push([offset, bytes.length]);
      if (offset === 0) file = new Uint8Array(0);
      expect(offset).toBe(file.length);
      const next = new Uint8Array(file.length + bytes.length);
      next.set(file);
      next.set(bytes, file.length);
      file = next;
    };
    return { calls, onBytes, file: () => file };
  }

  it('gets the kept bytes first, then the rest in order; a restart from 0 starts again at 0', async () => {
    const server = fakeServer();
    const partials = memoryPartialStore();
    server.cutAfter = 300_000;
    await expect(download(server, partials)).rejects.toThrow('network error');
    const resumed = listener();
    await downloadResumable({ fetch: server.fetch, url: URL_, artifact, partials, onBytes: resumed.onBytes, chunkBytes: 100_000 });
    expect(resumed.calls[0]).toEqual([0, 300_000]);
    expect(await sha256Hex(resumed.file())).toBe(artifact.sha256);

    // Corrupt kept bytes: fed, then the attempt from 0 feeds the file again from its first byte.
    server.cutAfter = 300_000;
    await expect(download(server, partials)).rejects.toThrow();
    partials.chunks.get(partialChunkName(artifact, 0))![17] ^= 0xff;
    const restarted = listener();
    await downloadResumable({ fetch: server.fetch, url: URL_, artifact, partials, onBytes: restarted.onBytes, chunkBytes: 100_000 });
    expect(restarted.calls.filter(([offset]) => offset === 0)).toHaveLength(2);
    expect(await sha256Hex(restarted.file())).toBe(artifact.sha256);
  });
});

describe('servers', () => {
  it('without Range support: the resumption gets the whole file (200), which is used from 0', async () => {
    const server = fakeServer();
    const partials = memoryPartialStore();
    server.cutAfter = 600_000;
    await expect(download(server, partials)).rejects.toThrow();
    server.ranges = false;
    const done = await download(server, partials);
    expect(await sha256Hex(done.gz)).toBe(artifact.sha256);
    expect(done.resumedAt).toBeNull();
    expect(server.requests.map((r) => [r.range, r.status])).toEqual([
      [null, 200],
      ['bytes=600000-', 200],
    ]);
  });

  it('serving another file: an integrity error, and nothing of it is kept', async () => {
    const server = fakeServer();
    const partials = memoryPartialStore();
    server.body = file.slice();
    server.body[SIZE - 5] ^= 1;
    await expect(download(server, partials)).rejects.toThrow(DatasetIntegrityError);
    expect((await partials.read(artifact)).length).toBe(0);
    server.body = new Uint8Array(SIZE + 5);
    await expect(download(server, partials)).rejects.toThrow(/more than the manifest/);
  });

  it('an HTTP error keeps what was kept, for the next try', async () => {
    const server = fakeServer();
    const partials = memoryPartialStore();
    server.cutAfter = 250_000;
    await expect(download(server, partials)).rejects.toThrow();
    const failing = { ...server, fetch: async () => new Response('busy', { status: 503 }) };
    await expect(downloadResumable({ fetch: failing.fetch, url: URL_, artifact, partials })).rejects.toThrow('HTTP 503');
    expect((await partials.read(artifact)).length).toBe(250_000);
  });

  it('with no partial store a cut download starts again from 0', async () => {
    const server = fakeServer();
    server.cutAfter = 250_000;
    await expect(downloadResumable({ fetch: server.fetch, url: URL_, artifact, partials: null })).rejects.toThrow();
    const done = await downloadResumable({ fetch: server.fetch, url: URL_, artifact, partials: null });
    expect(await sha256Hex(done.gz)).toBe(artifact.sha256);
    expect(server.requests.map((r) => r.range)).toEqual([null, null]);
  });
});

describe('shared between contexts', () => {
  it('a file another context kept is used after its check, with no request; a wrong one is downloaded', async () => {
    const server = fakeServer();
    const kept = new Map<string, Uint8Array>();
    const files: VerifiedFiles = {
      read: async (_a, url) => (kept.has(url) ? { gz: kept.get(url)!, fileDate: null } : null),
      write: async (_a, url, gz) => void kept.set(url, gz),
      complete: async () => true,
    };
    const order: string[] = [];
    const lock = async <T>(name: string, task: () => Promise<T>) => {
      order.push(name);
      return task();
    };
    const options = { fetch: server.fetch, dataUrl: 'https://app.example/data/', artifact, partials: memoryPartialStore(), files, lock };
    expect((await acquireArtifact(options)).how).toBe('downloaded');
    expect(server.requests.length).toBe(1);
    expect((await acquireArtifact(options)).how).toBe('shared');
    expect(server.requests.length).toBe(1);
    expect(order).toEqual([`offline-gov-api:download:${artifact.sha256}`, `offline-gov-api:download:${artifact.sha256}`]);
    kept.get(URL_)![3] ^= 1;
    const again = await acquireArtifact({ ...options, events: { log: () => {} } });
    expect(server.requests.length).toBe(2);
    expect(again.how).toBe('downloaded');
    expect(await sha256Hex(again.gz!)).toBe(artifact.sha256);
  });
});

describe('byte ranges', () => {
  it('reads the Range a client asks and the Content-Range a server answers', () => {
    expect(requestedRange(undefined, 100)).toBeNull();
    expect(requestedRange('bytes=10-', 100)).toEqual({ start: 10, end: 99 });
    expect(requestedRange('bytes=10-19', 100)).toEqual({ start: 10, end: 19 });
    expect(requestedRange('bytes=90-200', 100)).toEqual({ start: 90, end: 99 });
    expect(requestedRange('bytes=-5', 100)).toEqual({ start: 95, end: 99 });
    expect(requestedRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(requestedRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(requestedRange('items=1-2', 100)).toBeNull();
    expect(contentRange('bytes 10-99/100')).toEqual({ start: 10, end: 99, size: 100 });
    expect(contentRange('bytes */100')).toEqual({ start: null, end: null, size: 100 });
    expect(contentRange('nonsense')).toBeNull();
  });
});

describe('progress text', () => {
  it('says where a download resumed, then how far it is, in the units of the total', () => {
    const total = 14.0 * 1024 * 1024;
    const at = Math.round(11.2 * 1024 * 1024);
    expect(downloadText({ phase: 'download', received: at, total, resumedAt: at })).toBe('Resuming at 11.2 of 14.0 MB');
    expect(downloadText({ phase: 'download', received: at + 1024 * 1024, total, resumedAt: at })).toBe('Downloading 12.2 of 14.0 MB (resumed at 11.2)');
    expect(downloadText({ phase: 'download', received: 3 * 1024 * 1024, total, resumedAt: null })).toBe('Downloading 3.0 of 14.0 MB');
  });

  it('says when what downloads is only what changed (a patch from the copy kept here), and when it is applied', () => {
    const total = 2.7 * 1024 * 1024;
    expect(downloadText({ phase: 'download', received: 1024 * 1024, total, resumedAt: null, patch: true })).toBe(
      'Downloading only what changed, 1.0 of 2.7 MB',
    );
    expect(downloadText({ phase: 'decompress', received: total, total, resumedAt: null, patch: true })).toBe('Applying the changes');
  });

  it("is true to a real resumption's figures", async () => {
    const server = fakeServer();
    const partials = memoryPartialStore();
    server.cutAfter = 700_000;
    await expect(download(server, partials)).rejects.toThrow();
    const progress: DownloadProgress[] = [];
    await download(server, partials, progress);
    expect(downloadText({ ...progress[0], phase: 'download' })).toBe(`Resuming at ${(700_000 / 1024).toFixed(1)} of ${(SIZE / 1024).toFixed(1)} KB`);
  });
});
