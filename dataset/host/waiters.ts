/**
 * The requests waiting for one dataset to open. A relayed answer reaches its page through the service worker, a
 * hop the page's own answers skip: sent together, the page's own arrived first, and the render it started (a long
 * task on the page) held the relayed `fetch()` until it ended. So the page's own answers that waited with a
 * relayed one leave a little after it; and the load goes on to the next dataset once every waiter is answered.
 */

/** How long after the last relayed answer that waited the page's own waiting answers leave. */
export const RELAY_HEAD_START_MS = 20;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export class Waiters {
  private relayed = 0;
  private all = 0;
  private relayedDone = deferred();
  private allDone = deferred();

  /** A request starts waiting for the dataset. */
  enter(relayed: boolean): void {
    this.all++;
    if (relayed) this.relayed++;
  }

  /** A waiting request has its answer (or failed to get one). */
  leave(relayed: boolean): void {
    if (relayed && --this.relayed === 0) {
      this.relayedDone.resolve();
      this.relayedDone = deferred();
    }
    if (--this.all === 0) {
      this.allDone.resolve();
      this.allDone = deferred();
    }
  }

  /** Whether relayed requests are among the waiters (read when the dataset opens: all of them are counted then). */
  get withRelayed(): boolean {
    return this.relayed > 0;
  }

  /** Once every relayed waiter has its answer. */
  relayedAnswered(): Promise<void> {
    return this.relayed === 0 ? Promise.resolve() : this.relayedDone.promise;
  }

  /** Once every waiter has its answer. */
  answered(): Promise<void> {
    return this.all === 0 ? Promise.resolve() : this.allDone.promise;
  }
}
