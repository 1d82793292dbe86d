import { afterEach, describe, expect, it, vi } from 'vitest';
import { gzipDatabase, sha256Hex, type DatasetArtifact } from '../../../dataset/artifact.ts';
import { DatasetIntegrityError, downloadArtifact, fetchManifest, groupOwners, gunzip, resolveDataUrl } from '../../../dataset/index.ts';

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
    source: { profile: 'small', seed: 1 },
    ...overrides,
  };
}

/** A server that answers one file, in small chunks so progress has steps to report. */
function serve(files: Record<string, { body: Uint8Array; headers?: Record<string, string> }>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    const file = files[url.pathname];
    if (!file) return new Response('missing', { status: 404 });
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < file.body.length; at += 16_384) chunks.push(file.body.subarray(at, at + 16_384));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    return new Response(stream, { status: 200, headers: file.headers });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('downloadArtifact + gunzip', () => {
  it('returns the decompressed database and reports byte progress up to the manifest size', async () => {
    serve({ '/data/websites.sqlite.gz': { body: gz } });
    const seen: [number, number][] = [];
    const result = await gunzip(await downloadArtifact('http://localhost/data/', await artifact(), (received, total) => seen.push([received, total])), raw.length);
    expect(result).toEqual(raw);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toEqual([gz.length, gz.length]);
    for (let i = 1; i < seen.length; i++) expect(seen[i][0]).toBeGreaterThan(seen[i - 1][0]);
  });

  it('refuses a file whose sha256 differs from the manifest, saying so', async () => {
    const tampered = gz.slice();
    tampered[tampered.length - 20] ^= 0xff;
    serve({ '/data/websites.sqlite.gz': { body: tampered } });
    const error = await downloadArtifact('http://localhost/data', await artifact(), () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetIntegrityError);
    expect((error as Error).message).toMatch(/websites\.sqlite\.gz: sha256 mismatch \(manifest [0-9a-f]{64}, received [0-9a-f]{64}\)/);
  });

  it('refuses a truncated download before hashing it', async () => {
    serve({ '/data/websites.sqlite.gz': { body: gz.subarray(0, gz.length - 10) } });
    await expect(downloadArtifact('http://localhost/data', await artifact(), () => {})).rejects.toThrow(/received \d+ bytes, the manifest says \d+/);
  });

  it('explains a server that unpacked the gzip on the way (Content-Encoding)', async () => {
    serve({ '/data/websites.sqlite.gz': { body: raw, headers: { 'content-encoding': 'gzip' } } });
    await expect(downloadArtifact('http://localhost/data', await artifact(), () => {})).rejects.toThrow(/Content-Encoding: gzip/);
  });

  it('reports an HTTP error with the file and status', async () => {
    serve({});
    await expect(downloadArtifact('http://localhost/data', await artifact(), () => {})).rejects.toThrow('websites.sqlite.gz: HTTP 404');
  });
});

describe('gunzip', () => {
  it('gives the same bytes as the build compressed', async () => {
    expect(await gunzip(gz, raw.length)).toEqual(raw);
  });
});

describe('fetchManifest', () => {
  it('reads a manifest and rejects one naming an unknown dataset', async () => {
    const good = { version: 'v1', datasets: { websites: await artifact() } };
    serve({ '/d/manifest.json': { body: new TextEncoder().encode(JSON.stringify(good)) } });
    expect(await fetchManifest('http://localhost/d')).toEqual(good);
    serve({ '/d/manifest.json': { body: new TextEncoder().encode(JSON.stringify({ version: 'v1', datasets: { other: await artifact() } })) } });
    await expect(fetchManifest('http://localhost/d/')).rejects.toThrow('unknown dataset "other"');
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
