/**
 * The one road a dataset file takes onto the machine (dataset/artifact/acquire.ts): in its order (kept, shared,
 * downloaded; the patch step is held by host.test.ts), under the artifact's lock, so contexts that ask at once,
 * or one after another was cut, bring the file once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { acquireArtifact, type AcquireOptions, type ExclusiveLock, type VerifiedFiles } from '../../../dataset/artifact/acquire.ts';
import { memoryPartialStore } from '../../../dataset/artifact/partial-store.ts';
import { unpackedFileName, type StoredDatabase, type UnpackedStore } from '../../../dataset/artifact/unpacked-store.ts';
import { built, type BuiltFile } from '../helpers/built-file.ts';

const DATA = 'https://app.example/data/';
let websites: BuiltFile;
beforeAll(async () => {
  websites = await built('websites', 200);
});

/** A server of the one file that counts the bytes it sent; `cutAfter` ends the next body early, as a lost link does. */
function server() {
  const state = { sent: 0, requests: [] as (string | null)[], cutAfter: null as number | null };
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const range = new Headers(init.headers).get('range');
    state.requests.push(range);
    const from = range ? Number(/bytes=(\d+)-/.exec(range)![1]) : 0;
    let body = websites.gz.subarray(from);
    const cut = state.cutAfter;
    state.cutAfter = null;
    if (cut !== null) body = body.subarray(0, cut);
    state.sent += body.length;
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at < body.length) controller.enqueue(body.slice(at, (at += 4096)));
        else if (cut !== null) controller.error(new TypeError('network error'));
        else controller.close();
      },
    });
    const headers = range ? { 'content-range': `bytes ${from}-${websites.gz.length - 1}/${websites.gz.length}` } : undefined;
    return new Response(stream, { status: range ? 206 : 200, headers });
  };
  return { state, fetch };
}

function memoryUnpacked(): UnpackedStore & { files: Map<string, StoredDatabase> } {
  const files = new Map<string, StoredDatabase>();
  return {
    files,
    read: async (artifact) => {
      const kept = files.get(unpackedFileName(artifact));
      return kept ? { ...kept, prepared: null } : null;
    },
    readKept: async () => null,
    write: async (artifact, stored) => void files.set(unpackedFileName(artifact), stored),
    writePrepared: async () => {},
  };
}

function memoryFiles(): VerifiedFiles & { kept: Map<string, Uint8Array> } {
  const kept = new Map<string, Uint8Array>();
  return {
    kept,
    read: async (_artifact, url) => (kept.has(url) ? { gz: kept.get(url)!, fileDate: null } : null),
    write: async (_artifact, url, gz) => void kept.set(url, gz),
    complete: async () => true,
  };
}

/** One lock for every "context" of a test, as Web Locks are one per origin. */
function memoryLock(): ExclusiveLock {
  const tails = new Map<string, Promise<unknown>>();
  return (name, task) => {
    const run = (tails.get(name) ?? Promise.resolve()).catch(() => {}).then(task);
    tails.set(name, run);
    return run;
  };
}

describe('acquireArtifact', () => {
  it('takes the kept copy, then another context’s verified file, and downloads only when neither is here', async () => {
    const { state, fetch } = server();
    const places = { unpacked: memoryUnpacked(), files: memoryFiles(), partials: memoryPartialStore(), lock: memoryLock() };
    const options: AcquireOptions = { fetch, dataUrl: DATA, artifact: websites.artifact, ...places };
    const first = await acquireArtifact(options);
    expect(first.how).toBe('downloaded');
    expect(Buffer.from(await first.database()).equals(Buffer.from(websites.raw))).toBe(true);
    expect(await acquireArtifact(options).then((got) => got.how)).toBe('shared');
    expect(await first.keep(websites.artifact.rows)).toBe(true);
    const kept = await acquireArtifact(options);
    expect(kept.how).toBe('kept');
    expect(await kept.keep(websites.artifact.rows)).toBe(false);
    expect(state.sent).toBe(websites.gz.length);
    // A reset asks the server, past every copy kept here, and the shared copy is replaced.
    expect(await acquireArtifact({ ...options, cache: 'reload' }).then((got) => got.how)).toBe('downloaded');
    expect(state.sent).toBe(2 * websites.gz.length);
  });

  it('brings a file once when several contexts ask at once: the others wait on its lock and find it', async () => {
    const { state, fetch } = server();
    const shared = { files: memoryFiles(), partials: memoryPartialStore(), lock: memoryLock() };
    // Three contexts (a closed tab's worker, the service worker, a new tab's worker), each with its own unpacked view.
    const asks = [0, 1, 2].map(() => acquireArtifact({ fetch, dataUrl: DATA, artifact: websites.artifact, ...shared, unpacked: memoryUnpacked() }));
    const hows = (await Promise.all(asks)).map((got) => got.how);
    expect(hows).toEqual(['downloaded', 'shared', 'shared']);
    expect(state.requests).toEqual([null]);
    expect(state.sent).toBe(websites.gz.length);
  });

  it('resumes a download another context left cut, from its kept chunks', async () => {
    const { state, fetch } = server();
    const shared = { files: memoryFiles(), partials: memoryPartialStore(), lock: memoryLock() };
    const options: AcquireOptions = { fetch, dataUrl: DATA, artifact: websites.artifact, ...shared };
    const cutAt = Math.floor(websites.gz.length / 2);
    state.cutAfter = cutAt;
    await expect(acquireArtifact(options)).rejects.toThrow('network error');
    const got = await acquireArtifact(options);
    expect(got.how).toBe('downloaded');
    expect(state.requests[1]).toMatch(/^bytes=\d+-$/);
    // What arrived before the cut is kept (a chunk cut short is kept up to the cut): no byte is sent twice.
    expect(state.requests[1]).toBe(`bytes=${cutAt}-`);
    expect(state.sent).toBe(websites.gz.length);
    expect(Buffer.from(got.gz!).equals(Buffer.from(websites.gz))).toBe(true);
  });

  it('says a damaged shared copy is the news when the download that should replace it fails (offline)', async () => {
    const files = memoryFiles();
    const url = `${DATA}${websites.artifact.file}`;
    const damaged = websites.gz.slice();
    damaged[damaged.length >> 1] ^= 0xff;
    files.kept.set(url, damaged);
    const offline = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(acquireArtifact({ fetch: offline, dataUrl: DATA, artifact: websites.artifact, files, events: { log: () => {} } })).rejects.toThrow(
      /websites\.sqlite\.gz: sha256 mismatch .*; downloading it again failed: Failed to fetch/,
    );
  });
});
