/**
 * UI figures with the DEFAULT datasets (30,000 websites, 250,000 rates), measured in Chromium:
 *   1. time to the first usable view with a warm cache: from navigation start to the rates view showing
 *      its first answer (table and figures drawn), on reloads after a first visit;
 *   2. p50/p95 of a filter change updating the rates view: from the input event to the table and figures
 *      drawn with the new answer (measured inside the page, one frame after the draw).
 *
 *   npx tsx tests/e2e/measure.ts [--runs 60] [--loads 5]
 *
 * Builds public/data (default profile) when missing, builds the app into .tmp/dist-measure and serves it.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { previewDefaultApp } from '../../harness/browsers/build-app.ts';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../../harness/browsers/browser.ts';
import { waitForData } from '../../harness/browsers/app.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '60' }, loads: { type: 'string', default: '5' } } });
const RUNS = Number(values.runs);
const LOADS = Number(values.loads);
const ROOT = resolve(import.meta.dirname, '../..');
const OUT = resolve(ROOT, '.tmp/dist-measure');

function percentile(sorted: number[], p: number): number {
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

function summary(times: number[]): string {
  const s = [...times].sort((a, b) => a - b);
  return `n=${s.length} p50=${percentile(s, 0.5).toFixed(1)} ms p95=${percentile(s, 0.95).toFixed(1)} ms max=${s[s.length - 1].toFixed(1)} ms`;
}

/** Time from navigation start to the rates view's first drawn answer, read from the page's own mark. */
async function firstView(page: Page): Promise<number> {
  await page.waitForFunction(() => performance.getEntriesByName('view-rendered').length > 0, undefined, { timeout: 60_000, polling: 50 });
  return page.evaluate(() => performance.getEntriesByName('view-rendered')[0].startTime);
}

/**
 * Filter changes made in the page the way a user makes them (a click on a checkbox, a choice in a select),
 * each timed until the view has drawn the new answer and the next frame has run.
 */
async function filterChanges(page: Page, runs: number): Promise<{ times: number[]; took: number[]; phases: number[][] }> {
  // Plain JavaScript text: tsx would wrap named functions of a typed callback in a helper the page lacks.
  return page.evaluate(`(async (runs) => {
    const view = document.querySelector('app-shell').shadowRoot.querySelector('rates-view');
    const filters = view.shadowRoot.querySelector('rates-filters').shadowRoot;
    const checkboxes = [...filters.querySelectorAll('input[type=checkbox]')].slice(0, 4);
    const selects = [...filters.querySelectorAll('select')];
    const actions = [];
    for (const box of checkboxes) actions.push(() => box.click());
    for (const select of selects) {
      const choices = [...select.options].map((o) => o.value);
      let i = 0;
      actions.push(() => {
        i = (i + 1) % choices.length;
        select.value = choices[i];
        select.dispatchEvent(new Event('change', { bubbles: true }));
      });
    }
    const rendered = () => new Promise((done) => {
      const observer = new MutationObserver(() => {
        observer.disconnect();
        requestAnimationFrame(() => setTimeout(done, 0));
      });
      observer.observe(view, { attributes: true, attributeFilter: ['data-rendered-url'] });
    });
    const times = [];
    const took = [];
    const phases = [];
    const last = (name) => performance.getEntriesByName(name).at(-1).startTime;
    for (let n = 0; n < runs; n++) {
      const action = actions[n % actions.length];
      const done = rendered();
      const t0 = performance.now();
      action();
      await done;
      times.push(performance.now() - t0);
      took.push(view.results.value.body.took);
      phases.push([last('rates-request') - t0, last('rates-response') - last('rates-request'), last('view-rendered') - last('rates-response')]);
    }
    return { times, took, phases };
  })(${runs})`);
}

async function main(): Promise<void> {
  // The build skips itself when public/data already holds the default profile of the current generators.
  const { server, base } = await previewDefaultApp(OUT, 4318);
  const browser = await launchBrowser();
  try {
    const page = browser.page;
    const coldStart = Date.now();
    await page.goto(`${base}/#/rates`);
    await waitForData(page, 180_000);
    console.log(`first visit (cold cache): datasets open after ${Date.now() - coldStart} ms`);
    const status = await page.evaluate(() => (document.querySelector('app-shell') as unknown as { db: { status(): Promise<unknown> } }).db.status());
    const show = (s: unknown) =>
      JSON.stringify(
        (s as { datasets: { name: string; rows: unknown; bytes: number; timings: unknown }[] }).datasets.map((d) => [d.name, d.rows, d.bytes, d.timings]),
      );
    console.log('datasets (name, rows, bytes, load step ms):', show(status));
    // Let the service worker finish installing (it precaches the datasets) before the warm loads.
    await page.waitForTimeout(3000);

    const warm: number[] = [];
    const split: number[][] = [];
    for (let i = 0; i < LOADS; i++) {
      await page.reload();
      warm.push(await firstView(page));
      split.push(
        await page.evaluate<number[]>(`[
          performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
          ...['rates-request', 'rates-response', 'view-rendered'].map((n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN),
        ]`),
      );
    }
    const col = (i: number) => split.map((r) => r[i]);
    console.log(`  page scripts run (DOMContentLoaded end): ${summary(col(0))}`);
    console.log(`  first rates request sent: ${summary(col(1))}`);
    console.log(`  its answer on the page (datasets opened, API bound, query run): ${summary(col(2))}`);
    console.log(`first usable view, warm cache (navigation start → rates view drawn): ${summary(warm)}`);
    console.log(
      '  last warm load steps (ms):',
      show(await page.evaluate(() => (document.querySelector('app-shell') as unknown as { db: { status(): Promise<unknown> } }).db.status())),
    );

    for (const hash of ['#/rates', '#/rates?keyword=engineer']) {
      await page.goto(`${base}/${hash}`);
      await page.reload();
      await firstView(page);
      await waitForData(page, 180_000);
      const { times, took, phases } = await filterChanges(page, RUNS);
      const col = (i: number) => phases.map((p) => p[i]);
      console.log(`  input → request sent: ${summary(col(0))}`);
      console.log(`  request → answer on the page: ${summary(col(1))}`);
      console.log(`  answer → table and figures drawn: ${summary(col(2))}`);
      console.log(`filter change → rates view updated, ${hash}: ${summary(times)}`);
      console.log(`  of which the engine's own "took" in the worker: ${summary(took)}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
