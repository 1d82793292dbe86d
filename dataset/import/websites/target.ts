/** Site Scanning as an import target: the mapping of a snapshot's rows, its JSON pages, its table. */
import type { WebsiteRecord } from '../../../engine/site-scanning/record.ts';
import { insertWebsites, placeSortKeys } from '../../../engine/site-scanning/schema.ts';
import { ImportError } from '../errors.ts';
import { isWebsitesHeader } from '../formats.ts';
import type { ImportTarget, Mapper } from '../target.ts';
import { ALL_WEBSITE_COLUMNS, type WebsiteColumn } from './columns.ts';
import { mapWebsite, targetSource, type TargetSource } from './map.ts';
import type { SourceFields } from '../fields.ts';

function websitesMapper(snapshotDate: string | undefined): Mapper<WebsiteRecord> {
  let target: TargetSource = 'initial_domain';
  return {
    aliases: ALL_WEBSITE_COLUMNS,
    isHeader: isWebsitesHeader,
    rowsBeforeHeader: 0,
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

export const websitesTarget: ImportTarget<WebsiteRecord> = {
  dataset: 'websites',
  start: (options) => ({ mapper: websitesMapper(options.snapshotDate) }),
  json: {
    page: ['items'],
    noRecords: 'The JSON file is not an array of Site Scanning records. Nothing was changed.',
    record: (value) => value,
  },
  insertEvery: 1_000,
  // Sort keys are placed once, after the last batch.
  insert: (db, records) => insertWebsites(db, records, { sortKeys: 'later' }),
  finish: placeSortKeys,
};
