import { afterEach, describe, expect, it } from 'vitest';
import { RelayClient, type WindowClients } from '../../../adapters/service-worker/relay-client.ts';
import { RELAY_PROTOCOL, isRelayRequest, type BinaryResponse, type RelayResponse } from '../../../adapters/browser/relay-protocol.ts';
import { route, type RoutedToData } from '../../../engine/http/route.ts';
import { APIS } from '../../../engine/index.ts';

const request = route(APIS, { method: 'GET', url: 'http://localhost/websites?limit=1' }) as RoutedToData;
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
        const reply: RelayResponse = {
          v: RELAY_PROTOCOL,
          id: event.data.id,
          response: { status: 200, headers: {}, body: new TextEncoder().encode(`${id}:${event.data.routed.request.url}`) },
        };
        port.postMessage(reply, [reply.response.body.buffer]);
      };
    },
  };
}

/** The windows, and how many times the relay listed them. */
function clientsOf(windows: ReturnType<typeof fakeWindow>[]): WindowClients & { listed: number } {
  const clients = {
    listed: 0,
    windows: async () => {
      clients.listed++;
      return windows;
    },
    runsApp: (url: string) => new URL(url).pathname === '/',
  };
  return clients;
}

/** The relayed body as text. */
async function bodyOf(answer: Promise<BinaryResponse | null>): Promise<string | undefined> {
  const response = await answer;
  return response ? new TextDecoder().decode(response.body) : undefined;
}

afterEach(() => {
  for (const port of opened.splice(0)) port.close();
});

describe('relay to a window DB worker', () => {
  it('relays to a window that announced itself and reuses the port', async () => {
    const app = fakeWindow('a', 'http://localhost/#/rates', true);
    const relay = new RelayClient(clientsOf([app]), { known: 1000, probe: 50, cooldown: 0 });
    relay.markReady('a');
    expect(await bodyOf(relay.relay(request))).toBe('a:http://localhost/websites?limit=1');
    expect(await bodyOf(relay.relay(request))).toBe('a:http://localhost/websites?limit=1');
    expect(app.received).toEqual([{ type: 'relay-port', v: RELAY_PROTOCOL }]);
  });

  it('probes an app window it has not heard from, but never a page that does not run the app', async () => {
    const playground = fakeWindow('p', 'http://localhost/playground.html', true);
    const app = fakeWindow('a', 'http://localhost/', true);
    const relay = new RelayClient(clientsOf([playground, app]), { known: 1000, probe: 200, cooldown: 0 });
    expect(await bodyOf(relay.relay(request))).toMatch(/^a:/);
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

  it('asks the requesting window directly once its DB worker answered, without listing the windows', async () => {
    const app = fakeWindow('a', 'http://localhost/', true);
    const clients = clientsOf([app]);
    const relay = new RelayClient(clients, { known: 1000, probe: 200, cooldown: 0 });
    expect(await bodyOf(relay.relay(request, 'a'))).toMatch(/^a:/);
    expect(clients.listed).toBe(1);
    expect(await bodyOf(relay.relay(request, 'a'))).toMatch(/^a:/);
    expect(await bodyOf(relay.relay(request, 'a'))).toMatch(/^a:/);
    expect(clients.listed).toBe(1);
    // Another page (no port of its own) still goes through the list.
    expect(await bodyOf(relay.relay(request, 'playground'))).toMatch(/^a:/);
    expect(clients.listed).toBe(2);
    expect(app.received).toHaveLength(1);
  });

  it('falls back to the list when the requesting window stops answering on its port', async () => {
    const app = fakeWindow('a', 'http://localhost/', true);
    const clients = clientsOf([app]);
    const relay = new RelayClient(clients, { known: 50, probe: 50, cooldown: 0 });
    expect(await bodyOf(relay.relay(request, 'a'))).toMatch(/^a:/);
    opened[0].onmessage = null; // its DB worker is gone
    expect(await bodyOf(relay.relay(request, 'a'))).toMatch(/^a:/);
    expect(clients.listed).toBe(2);
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
    expect(await bodyOf(relay.relay(request))).toMatch(/^a:/);
    expect(app.received).toHaveLength(2);
  });
});
