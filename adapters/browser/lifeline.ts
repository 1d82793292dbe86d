/**
 * How the page learns that its DB worker is gone (terminated, closed, crashed) without a timer: the worker
 * holds a Web Lock named after itself for its whole life; the page asks for the same lock once the worker
 * said it holds it, and the browser grants the page that lock only when the worker's context is gone.
 */

/** What the worker posts on its own global port once it holds the lock (Comlink ignores messages without an id). */
export const LIFELINE_MESSAGE = 'db-worker-lifeline';

export interface LifelineMessage {
  type: typeof LIFELINE_MESSAGE;
  lock: string;
}

export function lifelineLock(workerName: string): string {
  return `offline-gov-api:lifeline:${workerName}`;
}

export function isLifelineMessage(data: unknown): data is LifelineMessage {
  const m = data as LifelineMessage | null;
  return !!m && m.type === LIFELINE_MESSAGE && typeof m.lock === 'string';
}

/** In the worker: take the lock named after this worker and never give it back. */
export function holdLifeline(scope: { name: string; navigator: { locks?: LockManager }; postMessage(message: unknown): void }): void {
  const locks = scope.navigator.locks;
  if (!locks || !scope.name) return;
  const lock = lifelineLock(scope.name);
  void locks.request(lock, () => {
    scope.postMessage({ type: LIFELINE_MESSAGE, lock } satisfies LifelineMessage);
    return new Promise<never>(() => {});
  });
}
