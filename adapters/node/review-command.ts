/**
 * `offline-gov-api review <file.xlsx> [--format csv|json]`: a GSA Catalog Platform price list reviewed against the
 * ceiling rates the command line serves (the built default, or `--ceilingrates`/`--data`), written to stdout
 * (docs/api/price-list-review.md). Reads only: a file that is not a price list is refused and nothing is written.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { readPriceListFile } from '../../dataset/price-lists/read-file.ts';
import { reviewPriceList } from '../../dataset/price-lists/review.ts';
import { reviewCsv } from '../../dataset/price-lists/review-csv.ts';
import { openBuiltDatasets, openDatasetFile, type OpenedDataset } from './dataset-files.ts';
import { builtDataDir } from './package-root.ts';

export const REVIEW_HELP = `  offline-gov-api review <price-list.xlsx> [--format csv|json] [--ceilingrates <file>] [--data <dir>]
                                    Review a GSA Catalog Platform price list against the ceiling rates:
                                    each hourly labor row's comparables, quartiles, mean, distance in
                                    standard deviations and percentile, as CSV (default) or JSON on stdout
`;

export interface ReviewOptions {
  file: string;
  format: 'csv' | 'json';
  ceilingrates?: string;
  dataDir?: string;
}

/** The review's arguments (after the word `review`); `fail` turns a mistake into the command line's usage error. */
export function parseReviewArgs(argv: readonly string[], fail: (message: string) => Error): ReviewOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { format: { type: 'string' }, ceilingrates: { type: 'string' }, data: { type: 'string' } },
    });
  } catch (error) {
    throw fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1)
    throw fail(positionals.length ? `review takes one price list, not ${positionals.length}` : 'review needs a price list: review <file.xlsx>');
  const format = values.format ?? 'csv';
  if (format !== 'csv' && format !== 'json') throw fail(`--format must be csv or json, not "${format}"`);
  return {
    file: positionals[0],
    format,
    ...(values.ceilingrates ? { ceilingrates: values.ceilingrates } : {}),
    ...(values.data ? { dataDir: values.data } : {}),
  };
}

/** The ceiling rates to compare against: the user's file, else the build's (the other built datasets closed). */
async function openRates(options: ReviewOptions): Promise<OpenedDataset> {
  if (options.ceilingrates) return openDatasetFile(options.ceilingrates, 'ceilingrates');
  const built = await openBuiltDatasets(options.dataDir ?? builtDataDir());
  for (const d of built) if (d.name !== 'ceilingrates') d.db.close();
  const rates = built.find((d) => d.name === 'ceilingrates');
  if (!rates) throw new Error(`no ceiling-rates dataset in ${options.dataDir ?? builtDataDir()}: pass --ceilingrates <file>`);
  return rates;
}

export async function runReview(options: ReviewOptions, out: (text: string) => void = (text) => process.stdout.write(text)): Promise<void> {
  // The price list first: a file that is not one is refused before any dataset is opened.
  const list = await readPriceListFile(await readFile(options.file));
  const rates = await openRates(options);
  try {
    const review = reviewPriceList(rates.db, list);
    console.error(
      `${list.vendor} (${list.contract}), generated ${list.generated}: ${list.rows.length} hourly labor rows reviewed against ${review.rates} rates. ${rates.label}`,
    );
    out(options.format === 'json' ? JSON.stringify({ source: rates.label, ...review }, null, 2) + '\n' : reviewCsv(review));
  } finally {
    rates.db.close();
  }
}
