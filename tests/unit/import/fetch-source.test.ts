import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchSource, FetchSourceError, fileNameOf, parseSourceUrl } from '../../../adapters/db-worker/fetch-source.ts';

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/data/snapshot.csv') {
      response.writeHead(200, { 'content-type': 'text/csv', 'content-length': 8 });
      response.end('a,b\n1,2\n');
    } else if (request.url === '/gz.csv') {
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-length': 3 });
      response.end(Buffer.from([0x1f, 0x8b, 0]));
    } else {
      response.writeHead(503, 'Service Unavailable');
      response.end('down');
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('fetchSource', () => {
  it('streams the body with its size and the name from the path', async () => {
    const fetched = await fetchSource(`${origin}/data/snapshot.csv`, new AbortController().signal);
    expect(fetched.size).toBe(8);
    expect(fetched.name).toBe('snapshot.csv');
    expect(await text(fetched.body)).toBe('a,b\n1,2\n');
  });

  it('does not take a compressed Content-Length for the size of the body it yields', async () => {
    const fetched = await fetchSource(`${origin}/gz.csv`, new AbortController().signal);
    expect(fetched.size).toBeNull();
    await fetched.body.cancel();
  });

  it('an HTTP error is a message with the status that says nothing changed', async () => {
    const failure = fetchSource(`${origin}/missing.csv`, new AbortController().signal);
    await expect(failure).rejects.toBeInstanceOf(FetchSourceError);
    await expect(failure).rejects.toThrow(/answered 503 Service Unavailable instead of the file\. .*nothing was changed/);
  });

  it('a network failure suggests CORS or reachability, and to import the downloaded file', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    await expect(fetchSource(`http://127.0.0.1:${port}/x.csv`, new AbortController().signal)).rejects.toThrow(
      /does not allow this app to read the file \(CORS\), or it could not be reached\. Download it and import the file instead/,
    );
  });

  it('an abort is the abort, not a download failure', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(fetchSource(`${origin}/data/snapshot.csv`, controller.signal)).rejects.not.toBeInstanceOf(FetchSourceError);
  });
});

describe('addresses', () => {
  it('accepts http and https only', () => {
    expect(parseSourceUrl('https://example.gov/a.csv').host).toBe('example.gov');
    expect(() => parseSourceUrl('file:///etc/passwd')).toThrow(/Only http and https/);
    expect(() => parseSourceUrl('data:text/csv,a')).toThrow(/Only http and https/);
    expect(() => parseSourceUrl('not a url')).toThrow(/is not a web address/);
  });

  it('names the file after the last path segment, else the host', () => {
    expect(fileNameOf(new URL('https://example.gov/data/weekly%20snapshot.csv?x=1'))).toBe('weekly snapshot.csv');
    expect(fileNameOf(new URL('https://example.gov/'))).toBe('example.gov');
  });
});
