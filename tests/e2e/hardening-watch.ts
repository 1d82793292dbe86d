/**
 * What the hardening browser tests watch for: a hostile payload that ran (it calls `window.__hostile`,
 * see tools/generate/hostile.ts, or opens a dialog), a Content Security Policy violation (in the page or a
 * worker), an uncaught page error; and a scan of the rendered DOM, shadow roots included.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { HOSTILE_MARKER } from '../../tools/generate/hostile.ts';

export interface Watch {
  /** Payloads that called the marker, and dialogs opened. */
  executed: string[];
  cspViolations: string[];
  pageErrors: string[];
}

/** Install the recorders on a context before any page of it loads. */
export async function watchContext(context: BrowserContext): Promise<Watch> {
  const watch: Watch = { executed: [], cspViolations: [], pageErrors: [] };
  // A binding, not a page global: it exists in every frame before any script and a CSP cannot block it.
  await context.exposeFunction(HOSTILE_MARKER, (name: unknown) => void watch.executed.push(`marker: ${String(name)}`));
  await context.exposeFunction('__cspViolation', (text: unknown) => void watch.cspViolations.push(String(text)));
  await context.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) =>
        (window as unknown as { __cspViolation(t: string): void }).__cspViolation(
          `${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber}) ${e.sample}`,
        ),
      true,
    );
  });
  return watch;
}

/** Per page: dialogs (an `alert(1)` payload), page errors and Chromium's CSP console reports (workers too). */
export function watchPage(page: Page, watch: Watch): void {
  page.on('dialog', (dialog) => {
    watch.executed.push(`dialog ${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => watch.pageErrors.push(error.message));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) watch.cspViolations.push(`console: ${message.text()}`);
  });
}

export interface DomScan {
  /** Text of the document and every shadow root. */
  text: string;
  /** Elements carrying an inline event handler attribute (Lit never writes one). */
  handlerAttributes: string[];
  /** iframe, object, embed, and script elements without a src. */
  activeElements: string[];
  /** Every link's resolved href. */
  links: string[];
  /** img elements (the app has none; a payload's `<img src=x>` would be one). */
  images: string[];
}

export function scanDom(page: Page): Promise<DomScan> {
  return page.evaluate(() => {
    const scan = { text: '', handlerAttributes: [] as string[], activeElements: [] as string[], links: [] as string[], images: [] as string[] };
    const texts: string[] = [];
    const visit = (root: Document | ShadowRoot) => {
      if (root instanceof ShadowRoot) texts.push(root.textContent ?? '');
      for (const el of root.querySelectorAll('*')) {
        for (const attribute of el.attributes) {
          if (/^on/i.test(attribute.name)) scan.handlerAttributes.push(`<${el.localName} ${attribute.name}="${attribute.value.slice(0, 80)}">`);
        }
        const tag = el.localName;
        if (tag === 'iframe' || tag === 'object' || tag === 'embed' || tag === 'frame') scan.activeElements.push(el.outerHTML.slice(0, 120));
        if (tag === 'script' && !el.getAttribute('src')) scan.activeElements.push(el.outerHTML.slice(0, 120));
        if (tag === 'img' || tag === 'image') scan.images.push(el.outerHTML.slice(0, 120));
        if (el instanceof HTMLAnchorElement && el.hasAttribute('href')) scan.links.push(el.href);
        if (el.shadowRoot) visit(el.shadowRoot);
      }
    };
    texts.push(document.body.textContent ?? '');
    visit(document);
    scan.text = texts.join('\n');
    return scan;
  });
}

/** Links that could run or render code when followed (`javascript:`, `data:`, …): anything but http(s). */
export function liveCodeLinks(links: string[]): string[] {
  return links.filter((href) => {
    try {
      const { protocol } = new URL(href);
      return protocol !== 'http:' && protocol !== 'https:';
    } catch {
      return true;
    }
  });
}
