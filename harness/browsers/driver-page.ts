/** What a browser test needs of a browser and its pages, whichever browser drives them (browser-driver.ts, firefox.ts). */
export interface DriverPage {
  /** Run `fn(arg)` in the page and return its (JSON-able) result; a page between documents rejects. */
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  reload(): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * What the in-page helpers (pwa-helpers.ts, served-files.ts) need of a page: Chromium's playwright Page is one as it
 * is; Firefox's puppeteer Page is one through firefoxPage (firefox.ts).
 */
export type EvaluatingPage = Pick<DriverPage, 'evaluate'>;

export interface BrowserDriver {
  /** A name for messages ("chromium"). */
  readonly name: string;
  /** A new tab at `url`, once its document has loaded. */
  open(url: string): Promise<DriverPage>;
  /** Closes the browser and deletes its profile. */
  close(): Promise<void>;
  /**
   * The errors its pages logged or threw so far, where the driver hears them (Chromium, Firefox); WebKit's are not
   * to be had this way (tests/e2e/console-recorder.ts records them in the page).
   */
  consoleErrors?(): string[];
}
