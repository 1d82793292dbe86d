/**
 * The price-list review's time in the app, per browser the suite drives (a measurement, never a test; run it under
 * the heavy-command lock):
 *   npx tsx scripts/measure-review.ts --file <price-list.xlsx> [--runs 3] [--browsers chromium,firefox] [--reuse]
 * Over the default build (public/data, built when missing) and the app built into .tmp/dist-measure-review: opens
 * the rates view, drops the file on the review panel `--runs` times and prints, per run, the milliseconds from the
 * drop to the file read (its worker), compared (the DB worker; the first run also builds the rates' index) and the
 * table shown. --reuse serves the previous build as it is. docs/api/price-list-review.md keeps the figures.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { preview } from 'vite';
import { previewDefaultApp } from '../harness/browsers/build-app.ts';
import { DRIVERS, untilDatasetsOpen } from '../harness/browsers/browser-driver.ts';
import { dropOnReview, reviewOutcome } from '../harness/browsers/review-page.ts';

const { values } = parseArgs({
  options: {
    file: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
    browsers: { type: 'string', default: Object.keys(DRIVERS).join(',') },
  },
});
if (!values.file) throw new Error('--file <price-list.xlsx> is required');
const bytes = new Uint8Array(readFileSync(values.file));
const name = basename(values.file);
const runs = Number(values.runs);

const OUT = resolve(import.meta.dirname, '../.tmp/dist-measure-review');

/** The app as built before (--reuse, when only this script changed), else built now over the default data. */
async function serve() {
  if (!values.reuse || !existsSync(resolve(OUT, 'index.html'))) return previewDefaultApp(OUT, 4391);
  const server = await preview({
    root: resolve(import.meta.dirname, '..'),
    logLevel: 'warn',
    build: { outDir: OUT },
    preview: { port: 4391, host: 'localhost' },
  });
  const address = server.httpServer.address();
  return { server, base: `http://localhost:${typeof address === 'object' && address ? address.port : 4391}` };
}

const { server, base } = await serve();
try {
  for (const browser of values.browsers!.split(',')) {
    const launch = DRIVERS[browser];
    if (!launch) throw new Error(`no driver "${browser}" (${Object.keys(DRIVERS).join(', ')})`);
    const driver = await launch();
    try {
      const page = await driver.open(`${base}/#/rates`);
      await untilDatasetsOpen(page, 120_000);
      for (let run = 1; run <= runs; run++) {
        await dropOnReview(page, name, bytes);
        const outcome = await reviewOutcome(page);
        if (outcome.error) throw new Error(`${browser}: ${outcome.error}`);
        const ms = (n: number) => `${Math.round(n)} ms`;
        console.log(`${browser} run ${run}: read ${ms(outcome.read)}, compared ${ms(outcome.compared)}, shown ${ms(outcome.shown)} — ${outcome.summary}`);
      }
    } finally {
      await driver.close();
    }
  }
} finally {
  await new Promise<void>((done) => server.httpServer.close(() => done()));
}
