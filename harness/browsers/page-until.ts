/**
 * Waiting for a page's asynchronous condition, in any browser the project drives (a playwright Page, or a driver's
 * page). Playwright's waitForFunction takes the promise an async predicate returns as a truthy answer and resolves at
 * once, so a condition that awaits (Cache Storage, origin-private files, locks, the DB worker) is polled from here
 * instead, each poll one page.evaluate that awaits it.
 */
import type { EvaluatingPage } from './driver-page.ts';

/** Poll `fn(arg)` in the page until it is truthy (a page between documents counts as not yet). */
export async function pageUntil<A>(
  page: EvaluatingPage,
  fn: (arg: A) => Promise<boolean> | boolean,
  arg: A,
  what: string,
  { timeoutMs = 60_000, pollMs = 100 }: { timeoutMs?: number; pollMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(fn, arg).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The app in the page has every dataset of its first visit open (its DB worker says it is ready). */
export function untilDatasetsOpen(page: EvaluatingPage, timeoutMs = 60_000): Promise<void> {
  return pageUntil(
    page,
    async () => {
      const shell = document.querySelector('app-shell') as unknown as { db?: { status(): Promise<{ ready: boolean }> } } | null;
      return !!shell?.db && (await shell.db.status()).ready;
    },
    null,
    'the datasets are open',
    { timeoutMs },
  );
}
