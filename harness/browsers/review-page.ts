/**
 * The price-list review driven from inside the page, so that one test (and the measure script) runs through the
 * browser-driver interface in every browser: a file is dropped on the review panel as a user's drop arrives, and
 * the outcome is read from the panel and the marks it leaves (`price-list-review-start` … `-shown`).
 */
import { pageUntil, type EvaluatingPage } from './browser-driver.ts';

/** The tags leading to the rates view's review panel, each inside the previous one's shadow root. */
const PANEL = ['app-shell', 'rates-view', 'price-list-review'];

/** Drops `bytes` as a file named `name` on the review panel (the panel opens itself); returns at once. */
export async function dropOnReview(page: EvaluatingPage, name: string, bytes: Uint8Array): Promise<void> {
  await pageUntil(
    page,
    (path: string[]) => {
      let at: Element | null = document.querySelector(path[0]);
      for (const tag of path.slice(1)) at = at?.shadowRoot?.querySelector(tag) ?? null;
      return at !== null;
    },
    PANEL,
    'the review panel is drawn',
  );
  await page.evaluate(
    ({ path, name, base64 }: { path: string[]; name: string; base64: string }) => {
      let at: Element | null = document.querySelector(path[0]);
      for (const tag of path.slice(1)) at = at?.shadowRoot?.querySelector(tag) ?? null;
      const binary = atob(base64);
      const data = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) data[i] = binary.charCodeAt(i);
      performance.clearMarks();
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        at!.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, composed: true, cancelable: true }));
      }
      return true;
    },
    { path: PANEL, name, base64: Buffer.from(bytes).toString('base64') },
  );
}

export interface ReviewOutcome {
  /** The summary line, or null when the panel shows an error instead. */
  summary: string | null;
  error: string | null;
  /** Milliseconds from the drop to the file read, compared in the DB worker, and the table shown. */
  read: number;
  compared: number;
  shown: number;
}

/** Waits until the panel shows a review or an error (`timeoutMs`), and reads it with the marks' times. */
export async function reviewOutcome(page: EvaluatingPage, timeoutMs = 120_000): Promise<ReviewOutcome> {
  await pageUntil(
    page,
    (path: string[]) => {
      let at: Element | null = document.querySelector(path[0]);
      for (const tag of path.slice(1)) at = at?.shadowRoot?.querySelector(tag) ?? null;
      return performance.getEntriesByName('price-list-review-shown').length > 0 || !!at?.shadowRoot?.querySelector('[role=alert]');
    },
    PANEL,
    'the review is shown or refused',
    { timeoutMs },
  );
  return page.evaluate((path: string[]) => {
    let at: Element | null = document.querySelector(path[0]);
    for (const tag of path.slice(1)) at = at?.shadowRoot?.querySelector(tag) ?? null;
    const root = at!.shadowRoot!;
    // No named function in here: tsx would wrap it in a helper the page lacks.
    const [start, read, compared, shown] = ['start', 'read', 'compared', 'shown'].map(
      (step) => performance.getEntriesByName(`price-list-review-${step}`)[0]?.startTime ?? NaN,
    );
    return {
      summary: root.querySelector('#review-summary')?.textContent?.replace(/\s+/g, ' ').trim() ?? null,
      error: root.querySelector('[role=alert]')?.textContent?.trim() ?? null,
      read: read - start,
      compared: compared - start,
      shown: shown - start,
    };
  }, PANEL);
}
