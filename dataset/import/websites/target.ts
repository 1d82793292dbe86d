/** Site Scanning as an import target: the mapping of a snapshot's rows, its JSON pages, its table. */
import type { WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { insertWebsites, placeSortKeys } from '../../../engine/site-scanning/schema.ts';
import { ImportError } from '../errors.ts';
import type { ImportTarget, Mapper } from '../target.ts';
import { countKnown, normaliseHeader } from '../columns.ts';
import { ALL_WEBSITE_COLUMNS, WEBSITE_COLUMNS, type WebsiteColumn } from './columns.ts';
import { mapWebsite, targetSource, type TargetSource } from './map.ts';
import type { SourceFields } from '../fields.ts';

/** A site-scanning header: at least two known columns, one of them naming the target or the final URL. */
function isWebsitesHeader(cells: readonly string[]): boolean {
  const names = new Set(cells.map(normaliseHeader));
  const anchored = ['initial_domain', 'target_url', 'url', 'final_url', 'domain', 'final_url_website'].some((n) => names.has(n));
  return anchored && countKnown(cells, WEBSITE_COLUMNS) >= 2;
}

function websitesMapper(snapshotDate: string | undefined): Mapper<WebsiteRecord> {
  let target: TargetSource = 'initial_domain';
  return {
    aliases: ALL_WEBSITE_COLUMNS,
    prepare(has, report) {
      const source = targetSource(has as (key: WebsiteColumn) => boolean);
      if (source === null) {
        throw new ImportError(
          'malformed',
          'The file has no target URL column (initial_domain or target_url) and no final URL to derive it from. Nothing was changed.',
        );
      }
      target = source;
      if (source !== 'initial_domain') {
        report.warn(
          `The file has no target URL column (initial_domain or target_url): target_url is taken from the final ${source === 'domain' ? 'website (domain / final_url_website)' : "URL's host (url / final_url)"}.`,
        );
      }
      if (!has('primary_scan_status'))
        report.warn('The file has no scan status column: scan_status is "completed" where a final URL is known, else "unknown_error".');
    },
    map: (row, notes) => mapWebsite(row as SourceFields<WebsiteColumn>, target, notes, snapshotDate),
    identity: (record) => record.target_url,
    identityName: 'target_url',
  };
}

export const websitesTarget: ImportTarget<WebsiteRecord, 'websites'> = {
  dataset: 'websites',
  labels: { csv: 'Site Scanning snapshot (CSV)', json: 'Site Scanning snapshot (JSON)' },
  builtIn: 'json',
  accepts: 'the Site Scanning snapshot (site-scanning-latest.csv or its JSON)',
  start: (options) => ({ mapper: websitesMapper(options.snapshotDate) }),
  csv: { isHeader: isWebsitesHeader, rowsBeforeHeader: 0 },
  json: {
    keys: /"(initial_domain|target_url|final_url|url|items|scan_date|target_url_domain)"\s*:/,
    name: /site-?scanning|website/,
    holds: 'Site Scanning records',
    page: ['items'],
    noRecords: 'The JSON file is not an array of Site Scanning records. Nothing was changed.',
    record: (value) => value,
  },
  insertEvery: 1_000,
  // Sort keys are placed once, after the last batch.
  insert: (db, records) => insertWebsites(db, records, { sortKeys: 'later' }),
  finish: placeSortKeys,
};
