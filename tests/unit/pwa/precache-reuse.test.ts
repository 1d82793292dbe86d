/**
 * The precache takes the page's copy only of a file whose URL names its content (decision 0400): a revision-less
 * entry is fetched force-cache; an entry with a revision, any other URL and a request with its own cache mode are
 * left as they are.
 */
import { describe, expect, it } from 'vitest';
import { reusePageCopies } from '../../../adapters/service-worker/precache-reuse.ts';

const BASE = 'https://app.example/sw.js';
const plugin = reusePageCopies(
  [
    { url: 'assets/db.worker-abc123.js', revision: null },
    { url: 'index.html', revision: '0f1e2d' },
  ],
  BASE,
);

async function willFetch(url: string, init?: RequestInit): Promise<Request> {
  const request = new Request(new URL(url, BASE), init);
  return plugin.requestWillFetch!({ request, event: undefined as unknown as ExtendableEvent, state: {} });
}

describe('reusePageCopies', () => {
  it('fetches a hashed file force-cache, so the copy the page loaded is taken', async () => {
    expect((await willFetch('assets/db.worker-abc123.js')).cache).toBe('force-cache');
  });

  it("leaves a file with a revision to Workbox's reload: its URL stays when its content changes", async () => {
    const request = await willFetch('index.html', { cache: 'reload' });
    expect(request.cache).toBe('reload');
  });

  it('leaves a URL outside the list, and a request that chose its own cache mode', async () => {
    expect((await willFetch('assets/other-xyz.js')).cache).toBe('default');
    expect((await willFetch('assets/db.worker-abc123.js', { cache: 'no-store' })).cache).toBe('no-store');
  });
});
