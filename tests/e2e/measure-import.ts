/**
 * Time and peak memory to import a generated 30,000-row Site Scanning snapshot CSV (the real 104-column
 * format, about 48 MB) through the app's own UI and DB worker in Chromium, with the default datasets open:
 * from the file input's change event to the import's report on screen (read, map, build the database,
 * gzip it and store it in IndexedDB, swap it in). Memory is the summed RSS of Chromium's processes,
 * sampled every 100 ms, against the idle figure just before the import.
 *
 *   npx tsx tests/e2e/measure-import.ts [--runs 2] [--rows 30000]
 *
 * Builds public/data (default profile) when missing, builds the app into .tmp/dist-measure-import.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { previewDefaultApp } from '../../harness/browsers/build-app.ts';
import { launchBrowser } from '../../harness/browsers/browser.ts';
import { waitForData } from '../../harness/browsers/app.ts';
import { snapshotLines } from '../../tools/make-snapshot.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '2' }, rows: { type: 'string', default: '30000' } } });
const RUNS = Number(values.runs);
const ROWS = Number(values.rows);
const ROOT = resolve(import.meta.dirname, '../..');
const OUT = resolve(ROOT, '.tmp/dist-measure-import');
const FILE = resolve(ROOT, `.tmp/import-measure/snapshot-${ROWS}.csv`);

/** Summed RSS (bytes) of the Chromium process whose command line names this profile, and its descendants. */
function chromiumRss(userDataDir: string): number {
  const lines = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,args='], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\n');
  const procs = lines
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => !!m)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), rss: Number(m[3]) * 1024, args: m[4] }));
  const tree = new Set(procs.filter((p) => p.args.includes(userDataDir) && !p.args.includes('--type=')).map((p) => p.pid));
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) {
      if (!tree.has(p.pid) && tree.has(p.ppid)) {
        tree.add(p.pid);
        grew = true;
      }
    }
  }
  return procs.filter((p) => tree.has(p.pid)).reduce((n, p) => n + p.rss, 0);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function main(): Promise<void> {
  mkdirSync(resolve(FILE, '..'), { recursive: true });
  writeFileSync(FILE, [...snapshotLines(ROWS, 7)].join('\r\n') + '\r\n');
  const fileBytes = statSync(FILE).size;
  console.log(`file: ${FILE}, ${ROWS} rows, ${(fileBytes / 1e6).toFixed(1)} MB`);

  const { server, base } = await previewDefaultApp(OUT, 4319);
  const browser = await launchBrowser();
  try {
    const page = browser.page;
    await page.goto(`${base}/#/datasets`);
    await waitForData(page, 180_000);
    await page.locator('dataset-choices section[data-choices="websites"]').waitFor();
    for (let run = 1; run <= RUNS; run++) {
      await page.waitForTimeout(1500);
      const idle = chromiumRss(browser.userDataDir);
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, chromiumRss(browser.userDataDir))), 100);
      const input = page.locator('#import-file');
      await input.evaluate((element) => {
        element.addEventListener('change', () => performance.mark('import-picked'), { once: true });
      });
      await input.setInputFiles(FILE);
      const card = page.locator('import-status section[data-state="done"], import-status section[data-state="failed"]');
      await card.waitFor({ timeout: 120_000 });
      const elapsed = await page.evaluate(() => performance.now() - performance.getEntriesByName('import-picked').at(-1)!.startTime);
      clearInterval(sampler);
      peak = Math.max(peak, chromiumRss(browser.userDataDir));
      const state = await card.getAttribute('data-state');
      const imported = await card
        .locator('[data-imported]')
        .getAttribute('data-imported')
        .catch(() => null);
      const message = (await card.locator('[data-message]').textContent())?.trim();
      console.log(
        `run ${run}: ${state}, ${imported} rows imported, ${(elapsed / 1000).toFixed(2)} s from pick to report; ` +
          `Chromium RSS idle ${mb(idle)}, peak ${mb(peak)} (+${mb(peak - idle)})${state === 'done' ? '' : ` — ${message}`}`,
      );
      await card.getByRole('button', { name: 'Dismiss' }).click();
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
