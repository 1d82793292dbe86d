/**
 * Waiting for a page's asynchronous condition. Playwright's waitForFunction takes the promise an async predicate
 * returns as a truthy answer and resolves at once, so a condition that awaits (Cache Storage, origin-private
 * files, locks, the DB worker) is polled from here instead, each poll one page.evaluate that awaits it.
 */
import type { Page } from 'playwright-core';

export async function pageUntil<A>(
  page: Page,
  condition: (arg: A) => Promise<boolean>,
  arg: A,
  { timeoutMs, pollMs = 100, what }: { timeoutMs: number; pollMs?: number; what: string },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // page.evaluate's overloads cannot check an argument of a generic type.
  const evaluate = page.evaluate.bind(page) as (fn: (arg: A) => Promise<boolean>, arg: A) => Promise<boolean>;
  while (!(await evaluate(condition, arg))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
