/**
 * What the DB worker posts on its global port once its script has run and its API is exposed (Comlink
 * ignores messages without an id). The page holds its own heavy start-up until then: the browser starts
 * the worker, and hands it the messages the page already sent, in tasks on the page's main thread.
 */
export const RUNNING_MESSAGE = 'db-worker-running';

export function isRunningMessage(data: unknown): boolean {
  return !!data && (data as { type?: unknown }).type === RUNNING_MESSAGE;
}
