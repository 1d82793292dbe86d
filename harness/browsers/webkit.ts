/**
 * Debian's WebKitGTK (package webkit2gtk-driver) for the browser tests that run in Safari's engine: an X server
 * of our own (Xvfb), MiniBrowser in automation mode serving WebKit's remote inspector on a local port, and
 * WebKitWebDriver connected to it, spoken to over plain W3C WebDriver (harness/browsers/webdriver.ts). An automation
 * session's storage is ephemeral (kept in memory for the browser's life, never on disk), so a WebKit launch always
 * starts afresh and `close` leaves nothing behind. Like the other browsers, one at a time on a small machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebDriverSession } from './webdriver.ts';
import type { DriverPage } from './driver-page.ts';
import { freePort } from '../free-port.ts';
import { leftOpen } from './left-open.ts';

/** Where Debian installs MiniBrowser (libwebkit2gtk-4.1-0), per architecture; `$MINIBROWSER_PATH` first. */
export function miniBrowserPath(): string {
  const candidates = [
    process.env.MINIBROWSER_PATH,
    '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
    '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
    '/usr/libexec/webkit2gtk-4.1/MiniBrowser',
  ];
  return candidates.find((path) => path && existsSync(path)) ?? candidates[1]!;
}

export function webKitDriverPath(): string {
  return process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';
}

export function xvfbPath(): string {
  return process.env.XVFB_PATH || '/usr/bin/Xvfb';
}

export interface WebKitPage extends DriverPage {
  /** The WebDriver window handle. */
  readonly window: string;
  goto(url: string): Promise<void>;
  screenshot(): Promise<Buffer>;
  setViewport(size: { width: number; height: number }): Promise<void>;
}

export interface WebKitBrowser {
  session: WebDriverSession;
  /** The window the browser opened with (blank), kept open. */
  first: WebKitPage;
  /** A new window at `url`, once its document has loaded. */
  open(url: string): Promise<WebKitPage>;
  close(): Promise<void>;
}

/** Xvfb on a display number it picks itself (`-displayfd`): free of any other X server on the machine. */
async function startXvfb(): Promise<{ process: ChildProcess; display: string }> {
  const xvfb = spawn(xvfbPath(), ['-displayfd', '1', '-screen', '0', '1920x1200x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    xvfb.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.match(/^(\d+)\n/);
      if (line) resolve(`:${line[1]}`);
    });
    xvfb.once('error', reject);
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it opened a display`)));
  });
  return { process: xvfb, display };
}

/** Stops a child process and waits for it; SIGKILL if it has not gone after a while. */
async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await gone;
  clearTimeout(timer);
}

async function until<T>(what: string, attempt: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (${error instanceof Error ? error.message : String(error)})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export async function launchWebKit({ viewport = { width: 1280, height: 800 } } = {}): Promise<WebKitBrowser> {
  const home = mkdtempSync(join(tmpdir(), 'e2e-webkit-'));
  const children: ChildProcess[] = [];
  const cleanup = async () => {
    for (const child of children.reverse()) await stop(child);
    // A web process may still be writing its last files as it exits.
    rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
  try {
    const xvfb = await startXvfb();
    children.push(xvfb.process);
    const [inspectorPort, driverPort] = [await freePort(), await freePort()];
    // The browser's own files (its caches, GStreamer's registry) go to a directory deleted on close.
    const env = {
      ...process.env,
      DISPLAY: xvfb.display,
      HOME: home,
      XDG_CACHE_HOME: join(home, 'cache'),
      XDG_DATA_HOME: join(home, 'data'),
      XDG_CONFIG_HOME: join(home, 'config'),
      WEBKIT_INSPECTOR_SERVER: `127.0.0.1:${inspectorPort}`,
      // No accessibility bus on a test machine: GTK would wait for one.
      NO_AT_BRIDGE: '1',
      MESA_SHADER_CACHE_DISABLE: 'true',
    };
    // Its console messages are not to be had: WebKit writes none of an ephemeral session's (automation's) to
    // standard output, and WebDriver classic has no log (tests/e2e/console-recorder.ts records them in the page).
    children.push(spawn(miniBrowserPath(), ['--automation'], { env, stdio: 'ignore' }));
    const driver = spawn(webKitDriverPath(), [`--port=${driverPort}`, `--target=127.0.0.1:${inspectorPort}`], { env, stdio: 'ignore' });
    children.push(driver);
    const base = `http://127.0.0.1:${driverPort}`;
    const session = await until('WebKitWebDriver starts a session in MiniBrowser', () => WebDriverSession.create(base));
    // A script stuck in a page fails within a test's time, and frees the session for the next command.
    await session.setTimeouts({ script: 110_000, pageLoad: 110_000 });
    const page = (window: string): WebKitPage => ({
      window,
      evaluate: (fn, arg) => session.evaluate(window, fn, arg),
      reload: () => session.refresh(window),
      goto: async (url) => void (await session.navigate(window, url)),
      close: () => session.closeWindow(window),
      screenshot: () => session.screenshot(window),
      setViewport: async (size) => void (await session.setWindowRect(window, size)),
    });
    const first = page(await session.firstWindow());
    await first.setViewport(viewport);
    const webkit: WebKitBrowser = {
      session,
      first,
      async open(url) {
        const opened = page(await session.newWindow(first.window));
        await opened.setViewport(viewport);
        await opened.goto(url);
        return opened;
      },
      async close() {
        leftOpen.delete(webkit);
        await session.delete().catch(() => {});
        await cleanup();
      },
    };
    leftOpen.add(webkit);
    return webkit;
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/**
 * WebKitGTK behind the browser-driver interface (`BrowserDriver`, harness/browsers/browser-driver.ts, which lists it in
 * DRIVERS). The blank window the browser opens with stays: closing a session's last window ends the session.
 */
export async function webkitDriver() {
  const webkit = await launchWebKit();
  return {
    name: 'webkit' as const,
    open: (url: string) => webkit.open(url),
    close: () => webkit.close(),
  };
}
