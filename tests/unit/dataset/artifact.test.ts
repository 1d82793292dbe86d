import { describe, expect, it } from 'vitest';
import { sha256Hex, type DatasetArtifact } from '../../../dataset/artifact/format.ts';
import { DatasetIntegrityError, groupOwners, pack, readManifest, resolveDataUrl, unpack, verifyArtifact } from '../../../dataset/index.ts';
import { acquireArtifact } from '../../../dataset/artifact/acquire.ts';
import { gzipDatabase } from '../../../adapters/node/datasets/dataset-writer.ts';

/** Bytes that do not compress away, so the gzip'd file arrives in several chunks. */
const raw = new Uint8Array(200_000);
for (let i = 0, x = 12345; i < raw.length; i++) raw[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
const gz = gzipDatabase(raw);

async function artifact(overrides: Partial<DatasetArtifact> = {}): Promise<DatasetArtifact> {
  return {
    name: 'websites',
    file: 'websites.sqlite.gz',
    bytes: gz.length,
    rawBytes: raw.length,
    sha256: await sha256Hex(gz),
    rows: { websites: 1 },
    source: { kind: 'synthetic', label: 'test data', profile: 'small', seed: 1 },
    ...overrides,
  };
}

/** A response that streams its body in small chunks, so progress has steps to report. */
function chunked(body: Uint8Array, headers?: Record<string, string>): Response {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < body.length; at += 16_384) chunks.push(body.subarray(at, at + 16_384));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  return new Response(stream, { status: 200, headers });
}

const URL_ = 'http://localhost/data/websites.sqlite.gz';

/** Byte-for-byte equality (vitest's deep equality walks a large array element by element). */
function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

describe('acquireArtifact, with nothing kept', () => {
  const DATA = 'http://localhost/data/';
  const download = async (response: () => Promise<Response>, onReceived?: (received: number) => void, onVerify?: () => void) =>
    acquireArtifact({ fetch: response, dataUrl: DATA, artifact: await artifact(), events: { onProgress: (p) => onReceived?.(p.received), onVerify } });

  it('returns the verified bytes, says it downloaded them, and reports byte progress up to the manifest size', async () => {
    const seen: number[] = [];
    let verifying = 0;
    const result = await download(
      async () => chunked(gz),
      (received) => seen.push(received),
      () => verifying++,
    );
    expect(result.how).toBe('downloaded');
    expect(same(result.gz!, gz)).toBe(true);
    expect(same(await result.database(), raw)).toBe(true);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe(gz.length);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    expect(verifying).toBe(1);
  });

  it('reports an HTTP error, and a file that cannot be fetched (offline), with the file', async () => {
    await expect(download(async () => new Response('missing', { status: 404 }))).rejects.toThrow(`websites.sqlite.gz: HTTP 404 from ${URL_}`);
    await expect(download(() => Promise.reject(new Error('cannot read: not cached, offline')))).rejects.toThrow('not cached, offline');
  });

  it('explains a server that unpacked the gzip on the way (Content-Encoding)', async () => {
    await expect(download(async () => chunked(raw, { 'content-encoding': 'gzip' }))).rejects.toThrow(/Content-Encoding: gzip/);
  });
});

describe('verifyArtifact', () => {
  it('refuses a file whose sha256 differs from the manifest, saying so', async () => {
    const tampered = gz.slice();
    tampered[tampered.length - 20] ^= 0xff;
    const error = await verifyArtifact(tampered, await artifact()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetIntegrityError);
    expect((error as Error).message).toMatch(/websites\.sqlite\.gz: sha256 mismatch \(manifest [0-9a-f]{64}, received [0-9a-f]{64}\)/);
  });

  it('refuses a truncated download before hashing it', async () => {
    await expect(verifyArtifact(gz.subarray(0, gz.length - 10), await artifact())).rejects.toThrow(/received \d+ bytes, the manifest says \d+/);
  });

  it('accepts the file the manifest describes', async () => {
    await expect(verifyArtifact(gz, await artifact())).resolves.toBeUndefined();
  });
});

describe('unpack and pack', () => {
  it('unpacks the bytes the build compressed, from bytes or from a Blob', async () => {
    expect(same(await unpack(gz, raw.length), raw)).toBe(true);
    expect(same(await unpack(new Blob([gz as Uint8Array<ArrayBuffer>]), 0), raw)).toBe(true);
  });

  it('unpacks what it packed', async () => {
    expect(same(await unpack(await pack(raw), raw.length), raw)).toBe(true);
  });

  it('refuses bytes that are not gzip', async () => {
    await expect(unpack(raw.subarray(0, 1000), 1000)).rejects.toThrow();
  });
});

describe('readManifest', () => {
  const json = (value: unknown) => new Response(JSON.stringify(value));

  it('reads a manifest and rejects one naming an unknown dataset or lacking a field', async () => {
    const good = { version: 'v1', datasets: { websites: await artifact() } };
    expect(await readManifest(json(good), 'm')).toEqual(good);
    await expect(readManifest(json({ version: 'v1', datasets: { other: await artifact() } }), 'm')).rejects.toThrow('unknown dataset "other"');
    await expect(readManifest(json({ version: 'v1', datasets: { websites: { file: 'w' } } }), 'm')).rejects.toThrow(
      'dataset "websites" lacks file, bytes or sha256',
    );
    await expect(readManifest(json({ datasets: {} }), 'm')).rejects.toThrow('manifest: m has no version or datasets');
  });

  it('says why there is no manifest to read', async () => {
    await expect(readManifest(new Response('<html>', { status: 200 }), 'm')).rejects.toThrow('manifest: m is not JSON');
    await expect(readManifest(new Response('', { status: 500 }), 'm')).rejects.toThrow('manifest: m answered HTTP 500');
    await expect(readManifest(undefined, 'm')).rejects.toThrow('manifest: m is not cached and cannot be fetched (offline)');
  });

  it('resolves file names under the data directory with or without a trailing slash', () => {
    expect(resolveDataUrl('http://localhost/app/data', 'm.json')).toBe('http://localhost/app/data/m.json');
    expect(resolveDataUrl('http://localhost/app/data/', 'm.json')).toBe('http://localhost/app/data/m.json');
  });
});

describe('groupOwners', () => {
  it('folds agency and bureau pairs into sorted agencies with their sorted bureaus and counts', () => {
    const owners = groupOwners([
      { agency: 'Department of B', bureau: 'Z bureau', count: 2 },
      { agency: 'Department of A', bureau: null, count: 1 },
      { agency: 'Department of B', bureau: 'A bureau', count: 3 },
      { agency: 'Department of B', bureau: 'Z bureau', count: 1 },
    ]);
    expect(owners).toEqual([
      { agency: 'Department of A', count: 1, bureaus: [] },
      {
        agency: 'Department of B',
        count: 6,
        bureaus: [
          { bureau: 'A bureau', count: 3 },
          { bureau: 'Z bureau', count: 3 },
        ],
      },
    ]);
  });
});
