/**
 * Chromium's network emulation on a page and on every worker below it, for scripts/measure-pwa.ts.
 *
 * The conditions `Network.emulateNetworkConditions` sets on a page's session reach the page and its own
 * dedicated workers only. The service worker (its script and its precache) and a worker started by a worker
 * are targets of their own and would fetch at full speed. So the page's session also auto-attaches to its
 * workers, before they run, sets the same conditions on each, and does the same one level down. A dedicated
 * worker refuses the command ("Not supported"): its requests follow its page's conditions once attached (a
 * worker's worker, attached so, downloaded 6.9 MB in 8.2 s instead of 2.2 s).
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

export interface LinkConditions {
  /** The rate given to Chromium's emulation (what it delivers is measured apart: see `readRate`). */
  downMbps: number;
  rttMs: number;
}

interface TargetInfo {
  type: string;
  url: string;
}

/** A CDP message, as sent to and received from targets reached through `Target.sendMessageToTarget`. */
interface Message {
  id?: number;
  method?: string;
  error?: { message: string };
  params?: { sessionId?: string; message?: string; targetInfo?: TargetInfo };
}

/**
 * The link on `page` and all its workers; returns the page's session (its events count the page's own bytes).
 * `attached` collects the workers it was set on.
 */
export async function emulateLink(context: BrowserContext, page: Page, link: LinkConditions, attached: TargetInfo[] = []): Promise<CDPSession> {
  const conditions = { offline: false, latency: link.rttMs, downloadThroughput: (link.downMbps * 1e6) / 8, uploadThroughput: (link.downMbps * 1e6) / 8 };
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', conditions);
  let id = 0;
  /** The command each innermost id stands for, and the kind of target it went to. */
  const commands = new Map<number, { method: string; type: string }>();
  // A target `path` deep (its parents' session ids first) is reached by wrapping the command once per level.
  const send = (path: string[], type: string, method: string, params: object = {}) => {
    let message: Message = { id: ++id, method, params };
    commands.set(id, { method, type });
    for (let i = path.length - 1; i >= 1; i--)
      message = { id: ++id, method: 'Target.sendMessageToTarget', params: { sessionId: path[i], message: JSON.stringify(message) } };
    // A target that has gone (a closed page's worker) refuses; anything else would leave a worker on the full-speed
    // link, so it is said.
    return cdp
      .send('Target.sendMessageToTarget', { sessionId: path[0], message: JSON.stringify(message) })
      .catch((error: unknown) => console.warn(`emulated link: ${method} not sent to a worker:`, error instanceof Error ? error.message : error));
  };
  const onAttached = (path: string[], info: TargetInfo) => {
    attached.push(info);
    // In order, before the target runs: the commands to one target arrive in the order they are sent.
    void send(path, info.type, 'Network.enable');
    void send(path, info.type, 'Network.emulateNetworkConditions', conditions);
    void send(path, info.type, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
    void send(path, info.type, 'Runtime.runIfWaitingForDebugger');
  };
  const onMessage = (path: string[], message: Message) => {
    const command = message.id === undefined ? undefined : commands.get(message.id);
    const expected = command?.type === 'worker' && command.method === 'Network.emulateNetworkConditions';
    if (message.error && !expected)
      console.warn(`emulated link: ${command?.type ?? 'a'} target refused ${command?.method ?? message.id}: ${message.error.message}`);
    const { sessionId, message: inner, targetInfo } = message.params ?? {};
    if (!sessionId) return;
    if (message.method === 'Target.attachedToTarget' && targetInfo) onAttached([...path, sessionId], targetInfo);
    if (message.method === 'Target.receivedMessageFromTarget' && inner) onMessage([...path, sessionId], JSON.parse(inner) as Message);
  };
  cdp.on('Target.attachedToTarget', (event) => onAttached([event.sessionId], event.targetInfo));
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    if (event.sessionId) onMessage([event.sessionId], JSON.parse(event.message) as Message);
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  return cdp;
}

/** What the link delivers to a page that only reads `url` (no app, no service worker): bytes, milliseconds, Mbps. */
export async function readRate(page: Page, url: string): Promise<{ bytes: number; ms: number; mbps: number }> {
  const read = (await page.evaluate(`(async () => {
    const started = performance.now();
    const reader = (await fetch(${JSON.stringify(url)}, { cache: 'no-store' })).body.getReader();
    let bytes = 0;
    for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.byteLength;
    return { bytes, ms: performance.now() - started };
  })()`)) as { bytes: number; ms: number };
  return { ...read, mbps: (read.bytes * 8) / read.ms / 1000 };
}
