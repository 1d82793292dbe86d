/**
 * Component tests: one Lit component mounted alone in Chromium, on the fixture page built by the e2e global
 * setup, with a fake DB client. The test answers the component's calls here in Node (`FakeAnswers`) and
 * reads back which calls it made (`calls()`). By default the API's answers (`getJson`) come from the engine
 * over the very datasets the app's browser tests serve, and `status()` from their manifest; any other call a
 * test does not answer fails, so a component asking for something unexpected is seen.
 *
 * Each test file opens one session: a context of its own (fresh storage) in the one Chromium the run starts for
 * the component tests (tests/e2e/global-setup.ts); each `mount` loads the fixture page again, so no test inherits
 * another's document, module state or calls.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import type { DbClient, DbStatus, ApiResult } from '../../../ui/api/db-client.ts';
import type { Engine } from '../../../engine/index.ts';
import type { Manifest } from '../../../dataset/artifact/format.ts';
import { datasetStatus } from '../../../dataset/host/status.ts';
import { chromium } from 'playwright-core';
import { collectPageErrors } from '../../../harness/browsers/browser.ts';
import { nodeEngine } from '../../../harness/browsers/app.ts';
import { ANSWER_BINDING, type AnsweredMethod, type DbCall, type WireAnswer, type WireArgs } from './wire.ts';

/** How the test answers one method: the same arguments (as they cross, see Wire) and the method's result. */
export type FakeAnswers = {
  [K in AnsweredMethod]?: (...args: WireArgs<Parameters<DbClient[K]>>) => Awaited<ReturnType<DbClient[K]>> | Promise<Awaited<ReturnType<DbClient[K]>>>;
};

export interface ComponentSession {
  page: Page;
  engine: Engine;
  manifest: Manifest;
  /** Page errors and console errors since the last mount. */
  errors: string[];
  /** A fresh fixture page with `<tag>` mounted, its calls answered by `answers` over the defaults. */
  mount(tag: string, options?: { properties?: Record<string, unknown>; answers?: FakeAnswers; hash?: string }): Promise<void>;
  /** The calls the mounted component made, in order. */
  calls(): Promise<DbCall[]>;
  /** The calls to one method, each call's arguments. */
  callsTo(method: DbCall['method']): Promise<unknown[][]>;
  /** Records the events of a type the component fires from now on (see FixtureApi.listen). */
  listen(type: string): Promise<void>;
  /** The events of a type recorded since `listen`. */
  events(type: string): Promise<unknown[]>;
  close(): Promise<void>;
}

/** The status the worker reports once every dataset of the served manifest is open. */
export function loadedStatus(manifest: Manifest): DbStatus {
  return {
    ready: true,
    dataUrl: '/data/',
    version: manifest.version,
    datasets: Object.values(manifest.datasets).map((artifact) =>
      datasetStatus({
        name: artifact.name,
        loaded: true,
        version: manifest.version,
        rows: artifact.rows,
        bytes: artifact.bytes,
        rawBytes: artifact.rawBytes,
        sha256: artifact.sha256,
        source: artifact.source,
      }),
    ),
    extras: manifest.extras ?? [],
  };
}

function defaults(engine: Engine, manifest: Manifest): FakeAnswers {
  return {
    getJson: (url) => {
      const response = engine.handle({ method: 'GET', url });
      return { url, status: response.status, headers: response.headers, body: JSON.parse(response.body) } satisfies ApiResult<unknown>;
    },
    status: () => loadedStatus(manifest),
    // No copy of the weeks was refused unless a test says so.
    weeksRefused: () => null,
  };
}

/** One session for a test file: opened before its tests, closed after them; the getter gives it inside a test. */
export function componentSessionPerFile(): () => ComponentSession {
  let session: ComponentSession | undefined;
  beforeAll(async () => {
    session = await openComponentSession();
  });
  afterAll(async () => {
    await session?.close();
  });
  return () => session!;
}

export async function openComponentSession(): Promise<ComponentSession> {
  const { engine, manifest } = await nodeEngine(inject('dataDir'));
  const browser = await chromium.connect(inject('componentsBrowser'));
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  let answers: FakeAnswers = {};

  await page.exposeFunction(ANSWER_BINDING, async (method: AnsweredMethod, args: unknown[]): Promise<WireAnswer> => {
    const answer = (answers[method] ?? defaults(engine, manifest)[method]) as ((...a: unknown[]) => unknown) | undefined;
    if (!answer) return { ok: false, message: `the test gave no answer for ${method}()` };
    try {
      return { ok: true, value: await answer(...args) };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  });

  const calls = () => page.evaluate(() => window.componentFixture!.calls());

  return {
    page,
    engine,
    manifest,
    errors,
    async mount(tag, options = {}) {
      answers = options.answers ?? {};
      errors.length = 0;
      // Through a blank page: a URL that differs from the last one only by its hash would keep the old document.
      await page.goto('about:blank');
      await page.goto(`${inject('componentsUrl')}/${options.hash ?? ''}`);
      await page.waitForFunction(() => !!window.componentFixture);
      await page.evaluate(([t, properties]) => window.componentFixture!.mount(t, properties), [tag, options.properties ?? {}] as const);
    },
    calls,
    async callsTo(method) {
      return (await calls()).filter((c) => c.method === method).map((c) => c.args);
    },
    listen: (type) => page.evaluate((t) => window.componentFixture!.listen(t), type),
    events: (type) => page.evaluate((t) => window.componentFixture!.events(t), type),
    async close() {
      await context.close();
      // A connected browser's close only disconnects: the run's Chromium stays for the next file.
      await browser.close();
    },
  };
}
