import { afterEach, describe, expect, it } from 'vitest';
import { RelayClient, type WindowClients } from '../../../adapters/service-worker/relay-client.ts';
import { RELAY_PROTOCOL, isRelayRequest, type RelayResponse } from '../../../adapters/browser/relay-protocol.ts';
import type { ApiRequest } from '../../../engine/http/types.ts';

const request: ApiRequest = { method: 'GET', url: 'http://localhost/websites?limit=1' };
const opened: MessagePort[] = [];

/** A window whose DB worker answers every relay request on the port it is handed (or stays silent). */
function fakeWindow(id: string, url: string, answers: boolean) {
  const received: unknown[] = [];
  return {
    id,
    url,
    received,
    postMessage(message: unknown, transfer: Transferable[]) {
      received.push(message);
      const port = transfer[0] as MessagePort;
      opened.push(port);
      port.onmessage = (event: MessageEvent) => {
        if (!answers || !isRelayRequest(event.data)) return;
        const reply: RelayResponse = { v: RELAY_PROTOCOL, id: event.data.id, response: { status: 200, headers: {}, body: `${id}:${event.data.request.url}` } };
        port.postMessage(reply);
      };
    },
  };
}

function clientsOf(windows: ReturnType<typeof fakeWindow>[]): WindowClients {
  return { windows: async () => windows, runsApp: (url) => new URL(url).pathname === '/' };
}

afterEach(() => {
  for (const port of opened.splice(0)) port.close();
});

describe('relay to a window DB worker', () => {
  it('relays to a window that announced itself and reuses the port', async () => {
    const app = fakeWindow('a', 'http://localhost/#/rates', true);
    const relay = new RelayClient(clientsOf([app]), { known: 1000, probe: 50, cooldown: 0 });
    relay.markReady('a');
    expect((await relay.relay(request))?.body).toBe('a:http://localhost/websites?limit=1');
    expect((await relay.relay(request))?.body).toBe('a:http://localhost/websites?limit=1');
    expect(app.received).toEqual([{ type: 'relay-port', v: RELAY_PROTOCOL }]);
  });

  it('probes an app window it has not heard from, but never a page that does not run the app', async () => {
    const playground = fakeWindow('p', 'http://localhost/playground.html', true);
    const app = fakeWindow('a', 'http://localhost/', true);
    const relay = new RelayClient(clientsOf([playground, app]), { known: 1000, probe: 200, cooldown: 0 });
    expect((await relay.relay(request))?.body).toMatch(/^a:/);
    expect(playground.received).toEqual([]);
  });

  it('answers null (the caller falls back) when no window answers in time, and opens a fresh port next time', async () => {
    const app = fakeWindow('a', 'http://localhost/', false);
    const relay = new RelayClient(clientsOf([app]), { known: 30, probe: 30, cooldown: 0 });
    relay.markReady('a');
    expect(await relay.relay(request)).toBeNull();
    expect(await relay.relay(request)).toBeNull();
    expect(app.received).toHaveLength(2);
  });

  it('does not probe a window that just failed again, until it announces itself', async () => {
    const app = fakeWindow('a', 'http://localhost/', false);
    const relay = new RelayClient(clientsOf([app]), { known: 30, probe: 30, cooldown: 60_000 });
    expect(await relay.relay(request)).toBeNull();
    expect(await relay.relay(request)).toBeNull();
    expect(app.received).toHaveLength(1);
    relay.markReady('a');
    expect(await relay.relay(request)).toBeNull();
    expect(app.received).toHaveLength(2);
  });

  it('answers null with no window at all', async () => {
    expect(await new RelayClient(clientsOf([])).relay(request)).toBeNull();
  });

  it('reopens channels after the dataset changed', async () => {
    const app = fakeWindow('a', 'http://localhost/', true);
    const relay = new RelayClient(clientsOf([app]), { known: 1000, probe: 200, cooldown: 0 });
    await relay.relay(request);
    relay.reset();
    expect((await relay.relay(request))?.body).toMatch(/^a:/);
    expect(app.received).toHaveLength(2);
  });
});
