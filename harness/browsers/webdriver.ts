/**
 * A W3C WebDriver (classic) session spoken to over plain HTTP with Node's fetch(): only the commands the browser
 * tests use (windows, navigation, scripts, screenshots). WebKitGTK's WebKitWebDriver has no other client here
 * (harness/browsers/webkit.ts); no npm package is needed for a handful of JSON requests.
 */

/** An error the remote end answered (`error`, `message`), or a transport failure. */
export class WebDriverError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

type Method = 'GET' | 'POST' | 'DELETE';

/** One request to the remote end; its `value` or its error. */
export async function webDriverCall<T>(base: string, method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const response = await fetch(base + path, {
    method,
    signal,
    headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let value: unknown;
  try {
    value = (JSON.parse(text) as { value: unknown }).value;
  } catch {
    throw new WebDriverError('unparsable answer', `${method} ${path}: HTTP ${response.status} ${text.slice(0, 200)}`);
  }
  if (!response.ok) {
    const { error, message } = (value ?? {}) as { error?: string; message?: string };
    throw new WebDriverError(error ?? `HTTP ${response.status}`, `${method} ${path}: ${message ?? text.slice(0, 200)}`);
  }
  return value as T;
}

/** What a script run in the page hands back: its value, or what it threw (the message, as the page saw it). */
type ScriptOutcome<R> = { ok: true; value: R } | { ok: false; error: string };

export class WebDriverSession {
  /**
   * Commands act on the session's current window: each is sent after the one before it settled, so that a
   * page's "switch to my window, then run" is never split by another page's command.
   */
  private queue: Promise<unknown> = Promise.resolve();
  private current: string | null = null;

  private constructor(
    private readonly base: string,
    readonly id: string,
  ) {}

  /** A new session on the remote end at `base` (http://127.0.0.1:port). */
  static async create(base: string, capabilities: Record<string, unknown> = {}): Promise<WebDriverSession> {
    const { sessionId } = await webDriverCall<{ sessionId: string }>(base, 'POST', '/session', { capabilities: { alwaysMatch: capabilities } });
    return new WebDriverSession(base, sessionId);
  }

  /** One command, in turn, on the session's current window (`window`: switched to first, when it is another). */
  command<T>(method: Method, path: string, body?: unknown, window?: string): Promise<T> {
    const run = async () => {
      if (window !== undefined && window !== this.current) {
        await webDriverCall(this.base, 'POST', `/session/${this.id}/window`, { handle: window });
        this.current = window;
      }
      return webDriverCall<T>(this.base, method, `/session/${this.id}${path}`, body);
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  setTimeouts(timeouts: { script?: number; pageLoad?: number; implicit?: number }): Promise<unknown> {
    return this.command('POST', '/timeouts', timeouts);
  }

  /** The window the session started with. */
  async firstWindow(): Promise<string> {
    this.current = await this.command<string>('GET', '/window');
    return this.current;
  }

  /**
   * A new window, opened from `from` (one still open: a session whose current window was closed answers "no such
   * window" to every command until it is switched to another).
   */
  async newWindow(from: string): Promise<string> {
    return (await this.command<{ handle: string }>('POST', '/window/new', { type: 'window' }, from)).handle;
  }

  navigate(window: string, url: string): Promise<unknown> {
    return this.command('POST', '/url', { url }, window);
  }

  refresh(window: string): Promise<unknown> {
    return this.command('POST', '/refresh', {}, window);
  }

  async closeWindow(window: string): Promise<void> {
    await this.command('DELETE', '/window', undefined, window);
    this.current = null;
  }

  setWindowRect(window: string, rect: { width: number; height: number }): Promise<unknown> {
    return this.command('POST', '/window/rect', rect, window);
  }

  /** A PNG of the window's viewport. */
  async screenshot(window: string): Promise<Buffer> {
    return Buffer.from(await this.command<string>('GET', '/screenshot', undefined, window), 'base64');
  }

  /**
   * `fn(arg)` run in the window's page, awaited there, its value handed back (as JSON). The function travels as
   * its source text inside the script itself (no eval in the page, which the app's security policy forbids): it
   * must use nothing from Node's side but `arg`. A throw in the page rejects here with the page's message.
   */
  async evaluate<R, A>(window: string, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
    // esbuild, which runs the tests under tsx, names nested functions with a helper of its own: given here too.
    const script = `const done = arguments[1];
const __name = (target) => target;
Promise.resolve(arguments[0]).then(${fn.toString()}).then(
  (value) => done({ ok: true, value: value === undefined ? null : value }),
  (error) => done({ ok: false, error: String(error && error.stack ? error.message + '\\n' + error.stack : error) }),
);`;
    const outcome = await this.command<ScriptOutcome<R>>('POST', '/execute/async', { script, args: [arg === undefined ? null : arg] }, window);
    if (!outcome.ok) throw new Error(`in the page: ${outcome.error}`);
    return outcome.value;
  }

  /**
   * Ends the session (the remote end closes its windows), not behind the commands still waiting: one stuck in a
   * page must not hold the browser open. Gives up after `timeoutMs` (the caller ends the processes anyway).
   */
  async delete(timeoutMs = 5_000): Promise<void> {
    await webDriverCall(this.base, 'DELETE', `/session/${this.id}`, undefined, AbortSignal.timeout(timeoutMs)).catch(() => {});
  }
}
