import type { RoutedToData } from '../../engine/http/route.ts';
import { RELAY_PROTOCOL, isRelayResponse, type BinaryResponse, type RelayRequest, type ServiceWorkerToWindow } from '../browser/relay-protocol.ts';

/** How long an answer from a window's DB worker may take before the service worker answers itself. */
export interface RelayTimeouts {
  /**
   * A window that announced itself or already answered: its DB worker answers once its dataset is open,
   * which on a cold start with the full datasets takes seconds. Waiting beats opening a second copy here.
   */
  known: number;
  /** A window that runs the app but has not announced itself to this service worker instance. */
  probe: number;
  /** After a window failed to answer, it is not probed again for this long (unless it announces itself). */
  cooldown: number;
}

export const DEFAULT_TIMEOUTS: RelayTimeouts = { known: 30_000, probe: 1_500, cooldown: 30_000 };

interface Pending {
  resolve(response: BinaryResponse | null): void;
  timer: ReturnType<typeof setTimeout>;
}

/** One MessageChannel to one window's DB worker. */
class RelayPort {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Set once the DB worker answered on this port: from then on it gets the long timeout. */
  answered = false;

  constructor(
    readonly clientId: string,
    private readonly port: MessagePort,
  ) {
    port.onmessage = (event: MessageEvent) => {
      if (!isRelayResponse(event.data)) return;
      const waiting = this.pending.get(event.data.id);
      if (!waiting) return;
      this.pending.delete(event.data.id);
      clearTimeout(waiting.timer);
      this.answered = true;
      waiting.resolve(event.data.response);
    };
  }

  /** The answer, or null when none came in time (the caller falls back). */
  send(routed: RoutedToData, timeoutMs: number): Promise<BinaryResponse | null> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(null);
      }, timeoutMs);
      this.pending.set(id, { resolve, timer });
      const message: RelayRequest = { v: RELAY_PROTOCOL, id, routed };
      this.port.postMessage(message);
    });
  }

  close(): void {
    for (const { resolve, timer } of this.pending.values()) {
      clearTimeout(timer);
      resolve(null);
    }
    this.pending.clear();
    this.port.close();
  }
}

/** What the relay needs from the service worker's global scope; a narrow seam for the clients API. */
export interface WindowClients {
  /** Window clients in the scope, with their URLs. */
  windows(): Promise<readonly { id: string; url: string; postMessage(message: unknown, transfer: Transferable[]): void }[]>;
  /** True when the URL is a page that runs the app (and so owns a DB worker). */
  runsApp(url: string): boolean;
}

/**
 * Relays API requests to a window's DB worker (one copy of the data in memory). A port is cached per
 * window and dropped when that window goes, stops answering, or the dataset changes.
 */
export class RelayClient {
  /** Windows that sent `db-ready` to this service worker instance (lost when it is stopped; see probe). */
  private readonly ready = new Set<string>();
  private readonly ports = new Map<string, RelayPort>();
  /** Windows that did not answer in time, and when: no request pays their timeout again soon. */
  private readonly failed = new Map<string, number>();

  constructor(
    private readonly clients: WindowClients,
    private readonly timeouts: RelayTimeouts = DEFAULT_TIMEOUTS,
  ) {}

  markReady(clientId: string): void {
    this.ready.add(clientId);
    this.failed.delete(clientId);
  }

  /** The data behind the windows changed: reopen channels so no answer mixes old and new. */
  reset(): void {
    for (const port of this.ports.values()) port.close();
    this.ports.clear();
  }

  /**
   * An answer from some window's DB worker, or null when no window could answer in time. `requester` is
   * the client that made the request (the fetch event's `clientId`): when its own DB worker already answered
   * on a port, it is asked directly, without listing the windows (the requester is alive: it is waiting).
   */
  async relay(routed: RoutedToData, requester = ''): Promise<BinaryResponse | null> {
    const own = this.ports.get(requester);
    if (own?.answered) {
      const answer = await own.send(routed, this.timeouts.known);
      if (answer) return answer;
      this.drop(requester);
    }
    const windows = await this.clients.windows();
    const alive = new Set(windows.map((w) => w.id));
    for (const [id, port] of this.ports) {
      if (!alive.has(id)) {
        port.close();
        this.ports.delete(id);
        this.ready.delete(id);
      }
    }
    // Announced windows first, then app windows this instance has not heard from (it may have been restarted).
    const now = Date.now();
    const cooling = (id: string) => now - (this.failed.get(id) ?? -Infinity) < this.timeouts.cooldown;
    const candidates = [
      ...windows.filter((w) => this.ready.has(w.id)),
      ...windows.filter((w) => !this.ready.has(w.id) && this.clients.runsApp(w.url) && !cooling(w.id)),
    ];
    // At most two tries, so a request never waits on more than two timeouts before the fallback.
    for (const window of candidates.slice(0, 2)) {
      let port = this.ports.get(window.id);
      if (!port) {
        const channel = new MessageChannel();
        port = new RelayPort(window.id, channel.port1);
        const message: ServiceWorkerToWindow = { type: 'relay-port', v: RELAY_PROTOCOL };
        window.postMessage(message, [channel.port2]);
        this.ports.set(window.id, port);
      }
      const trusted = port.answered || this.ready.has(window.id);
      const answer = await port.send(routed, trusted ? this.timeouts.known : this.timeouts.probe);
      if (answer) {
        this.ready.add(window.id);
        return answer;
      }
      this.drop(window.id);
    }
    return null;
  }

  /** No answer in time: this window's channel is suspect; a later request opens a fresh one. */
  private drop(id: string): void {
    this.ports.get(id)?.close();
    this.ports.delete(id);
    this.ready.delete(id);
    this.failed.set(id, Date.now());
  }
}
