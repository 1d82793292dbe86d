/**
 * `offline-gov-api review <file.xlsx>`: a GSA Catalog Platform price list reviewed against the ceiling rates the
 * command line serves (the built default, or `--ceilingrates`/`--data`), written to stdout as the app exports it
 * (docs/api/price-list-review.md): the memo-ready CSV, JSON, or the printable page. Reads only: a file that is not
 * a price list is refused and nothing is written.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { readPriceListFile } from '../../dataset/price-lists/read-file.ts';
import { reviewPriceList } from '../../dataset/price-lists/review.ts';
import { dataDateOf, reviewCsv, type ReviewMeta } from '../../dataset/price-lists/review-csv.ts';
import { comparedRatesCsv } from '../../dataset/price-lists/compared-rates.ts';
import { reviewMemoHtml } from '../../dataset/price-lists/review-memo.ts';
import { comparisonOptions, DEFAULT_OPTIONS, type ComparisonOptions } from '../../dataset/price-lists/comparables.ts';
import { openBuiltDatasets, openDatasetFile, type OpenedDataset } from './dataset-files.ts';
import { builtDataDir } from './package-root.ts';

export const REVIEW_HELP = `  offline-gov-api review <price-list.xlsx> [--format csv|json|html] [--compared <file.csv>]
                         [--min-comparables ${DEFAULT_OPTIONS.minComparables}] [--every-rate] [--ceilingrates <file>] [--data <dir>]
                                    Review a GSA Catalog Platform price list against the ceiling rates:
                                    each hourly labor row's comparables, quartiles, mean, distance in
                                    standard deviations, percentile and flag, as memo-ready CSV (default),
                                    JSON or a printable HTML page on stdout; --compared writes the compared
                                    rates; --every-rate counts an offer once per SIN, not once
`;

const FORMATS = ['csv', 'json', 'html'] as const;

export interface ReviewOptions {
  file: string;
  format: (typeof FORMATS)[number];
  comparison: ComparisonOptions;
  compared?: string;
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
      options: {
        format: { type: 'string' },
        compared: { type: 'string' },
        'min-comparables': { type: 'string' },
        'every-rate': { type: 'boolean' },
        ceilingrates: { type: 'string' },
        data: { type: 'string' },
      },
    });
  } catch (error) {
    throw fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1)
    throw fail(positionals.length ? `review takes one price list, not ${positionals.length}` : 'review needs a price list: review <file.xlsx>');
  const format = values.format ?? 'csv';
  if (!(FORMATS as readonly string[]).includes(format)) throw fail(`--format must be ${FORMATS.join(', ')}, not "${format}"`);
  let comparison: ComparisonOptions;
  try {
    comparison = comparisonOptions({
      ...(values['min-comparables'] === undefined ? {} : { minComparables: Number(values['min-comparables']) }),
      onePerOffer: !values['every-rate'],
    });
  } catch (error) {
    throw fail(`--min-comparables: ${(error as Error).message}`);
  }
  return {
    file: positionals[0],
    format: format as ReviewOptions['format'],
    comparison,
    ...(values.compared ? { compared: values.compared } : {}),
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
    const review = reviewPriceList(rates.db, list, options.comparison);
    const meta: ReviewMeta = {
      source: { label: rates.label, version: rates.version ?? null, date: dataDateOf(rates.source) },
      reviewedOn: new Date().toISOString().slice(0, 10),
    };
    console.error(
      `${list.vendor} (${list.contract}), generated ${list.generated}: ${list.rows.length} hourly labor rows reviewed against ${review.rates} rates. ${rates.label}`,
    );
    if (options.compared) await writeFile(options.compared, comparedRatesCsv(rates.db, review));
    out(
      options.format === 'json'
        ? JSON.stringify({ ...meta, ...review }, null, 2) + '\n'
        : options.format === 'html'
          ? reviewMemoHtml(review, meta)
          : reviewCsv(review, meta),
    );
  } finally {
    rates.db.close();
  }
}
