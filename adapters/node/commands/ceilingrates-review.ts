/**
 * `offline-gov-api review <file.xlsx>`: a GSA Catalog Platform price list reviewed against the ceiling rates the
 * command line serves (the built default, or `--ceilingrates`/`--data`), written to stdout as the app exports it
 * (docs/api/price-list-review.md): the memo-ready CSV, JSON, or the printable page. Reads only: a file that is not
 * a price list is refused and nothing is written. A command of the ceiling-rates dataset: it asks the rates' API
 * for the dataset's name (its `--<name>` option, the built dataset it opens).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { readPriceListFile } from '../../../dataset/price-lists/read-file.ts';
import { reviewPriceList } from '../../../dataset/price-lists/review.ts';
import { dataDateOf, reviewCsv, type ReviewMeta } from '../../../dataset/price-lists/review-csv.ts';
import { comparedRatesCsv } from '../../../dataset/price-lists/compared-rates.ts';
import { reviewMemoHtml } from '../../../dataset/price-lists/review-memo.ts';
import { comparisonOptions, DEFAULT_OPTIONS, type ComparisonOptions } from '../../../dataset/price-lists/comparables.ts';
import { ceilingRatesApi } from '../../../engine/ceilingrates/api.ts';
import { openBuiltDatasets, openDatasetFile, type DatasetFromFile } from '../datasets/dataset-files.ts';
import { builtDataDir } from '../datasets/package-root.ts';
import { stringOption, UsageError, type Command } from './command-line.ts';

const FORMATS = ['csv', 'json', 'html'] as const;

/** The dataset a price list is reviewed against. */
const RATES = ceilingRatesApi.dataset;

export interface ReviewOptions {
  file: string;
  format: (typeof FORMATS)[number];
  comparison: ComparisonOptions;
  compared?: string;
  /** The rates as the user's file (`--ceilingrates`) instead of the build's. */
  ratesFile?: string;
  dataDir?: string;
}

/** `review`, as the command line reads it (adapters/node/commands/command-line.ts). */
export const REVIEW: Command<ReviewOptions> = {
  name: 'review',
  args: '<price-list.xlsx>',
  positionals: 1,
  summary:
    "Review a GSA Catalog Platform price list against the ceiling rates: each hourly labor row's comparables, quartiles, mean, distance in standard deviations, percentile and flag, as memo-ready CSV (default), JSON or a printable HTML page on stdout",
  options: [
    'format',
    'compared',
    { name: 'min-comparables', help: `Comparables a row needs to be judged and flagged (default ${DEFAULT_OPTIONS.minComparables}; from 2)` },
    'every-rate',
    RATES,
    'data',
  ],
  read({ values, positionals }) {
    if (positionals.length !== 1) throw new UsageError('review needs a price list: review <file.xlsx>');
    const format = stringOption(values.format) ?? 'csv';
    if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be ${FORMATS.join(', ')}, not "${format}"`);
    let comparison: ComparisonOptions;
    const minimum = stringOption(values['min-comparables']);
    try {
      comparison = comparisonOptions({ ...(minimum === undefined ? {} : { minComparables: Number(minimum) }), onePerOffer: !values['every-rate'] });
    } catch (error) {
      throw new UsageError(`--min-comparables: ${(error as Error).message}`);
    }
    const [compared, ratesFile, dataDir] = [stringOption(values.compared), stringOption(values[RATES]), stringOption(values.data)];
    return {
      file: positionals[0],
      format: format as ReviewOptions['format'],
      comparison,
      ...(compared ? { compared } : {}),
      ...(ratesFile ? { ratesFile } : {}),
      ...(dataDir ? { dataDir } : {}),
    };
  },
  run: (options) => runReview(options),
};

/** The ceiling rates to compare against: the user's file, else the build's (the other built datasets closed). */
async function openRates(options: ReviewOptions): Promise<DatasetFromFile> {
  if (options.ratesFile) return openDatasetFile(options.ratesFile, RATES);
  const built = await openBuiltDatasets(options.dataDir ?? builtDataDir());
  for (const d of built) if (d.name !== RATES) d.db.close();
  const rates = built.find((d) => d.name === RATES);
  if (!rates) throw new Error(`no ceiling-rates dataset in ${options.dataDir ?? builtDataDir()}: pass --${RATES} <file>`);
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
