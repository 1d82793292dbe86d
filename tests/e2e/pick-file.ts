/**
 * A file picked in the app as a user picks it, and the import's outcome, in any browser (the driver interface's page):
 * the file crosses as base64 into a DataTransfer's files, set on the input (found through the shadow roots) with the
 * change event a pick fires; the outcome is read from the import card.
 */
import { pageUntil } from '../../harness/browsers/browser-driver.ts';
import type { EvaluatingPage } from '../../harness/browsers/driver-page.ts';

export interface PickedFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/** Whether `selector` matches in the document or any shadow root (the input is drawn once its view is). */
function present(selector: string): boolean {
  const find = (root: Document | ShadowRoot): boolean =>
    !!root.querySelector(selector) || [...root.querySelectorAll('*')].some((element) => !!element.shadowRoot && find(element.shadowRoot));
  return find(document);
}

export async function pickFile(page: EvaluatingPage, input: string, file: PickedFile): Promise<void> {
  await pageUntil(page, present, input, `${input} is drawn`);
  await page.evaluate(
    ([selector, { name, type, base64 }]) => {
      const find = (root: Document | ShadowRoot): HTMLInputElement | null => {
        const here = root.querySelector<HTMLInputElement>(selector);
        if (here) return here;
        for (const element of root.querySelectorAll('*')) {
          const inside = element.shadowRoot ? find(element.shadowRoot) : null;
          if (inside) return inside;
        }
        return null;
      };
      const field = find(document);
      if (!field) throw new Error(`no ${selector} in the page`);
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type }));
      field.files = transfer.files;
      field.dispatchEvent(new Event('change', { bubbles: true }));
    },
    [input, { name: file.name, type: file.type, base64: Buffer.from(file.bytes).toString('base64') }] as const,
  );
}

export interface ImportOutcomeCard {
  state: string;
  code: string;
  message: string;
}

/** The import card's outcome (done or failed), once it shows one. */
export async function importOutcome(page: EvaluatingPage, timeoutMs = 60_000): Promise<ImportOutcomeCard> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = await page.evaluate(() => {
      const status = document.querySelector('app-shell')?.shadowRoot?.querySelector('import-drop-zone')?.shadowRoot?.querySelector('import-status');
      const card = status?.shadowRoot?.querySelector('section[data-state="done"], section[data-state="failed"]');
      return card
        ? {
            state: card.getAttribute('data-state')!,
            code: card.getAttribute('data-code')!,
            message: card.querySelector('[data-message]')?.textContent?.trim() ?? '',
          }
        : null;
    }, null);
    if (outcome) return outcome;
    if (Date.now() > deadline) throw new Error(`no import outcome within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
