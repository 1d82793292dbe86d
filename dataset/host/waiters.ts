/**
 * The requests waiting for one dataset to open. A relayed answer reaches its page through the service worker, a
 * hop the page's own answers skip: sent together, the page's own arrived first, and the render it started (a long
 * task on the page) held the relayed `fetch()` until it ended. So the page's own answers that waited with a
 * relayed one leave a little after it; and the load goes on to the next dataset once every waiter is answered.
 */

import { Gate } from './gate.ts';
import { delay } from '../tasks.ts';

/** How long after the last relayed answer that waited the page's own waiting answers leave. */
const RELAY_HEAD_START_MS = 20;

export class Waiters {
  private relayed = 0;
  private all = 0;
  /** Opened (and reset for the next opening) each time the count it follows comes back to zero. */
  private readonly relayedDone = new Gate();
  private readonly allDone = new Gate();

  /** A request starts waiting for the dataset. */
  enter(relayed: boolean): void {
    this.all++;
    if (relayed) this.relayed++;
  }

  /** A waiting request has its answer (or failed to get one). */
  leave(relayed: boolean): void {
    if (relayed && --this.relayed === 0) settle(this.relayedDone);
    if (--this.all === 0) settle(this.allDone);
  }

  /**
   * For a page's own request, when the dataset has opened: whether it waits behind relayed ones (read at once, while
   * every waiter is still counted). The returned promise resolves when it may be answered.
   */
  turn(relayed: boolean): () => Promise<void> {
    if (relayed || this.relayed === 0) return () => Promise.resolve();
    return async () => {
      if (this.relayed > 0) await this.relayedDone.promise;
      await delay(RELAY_HEAD_START_MS);
    };
  }

  /** Once every waiter has its answer. */
  answered(): Promise<void> {
    return this.all === 0 ? Promise.resolve() : this.allDone.promise;
  }
}

function settle(gate: Gate): void {
  gate.open();
  gate.reset();
}
