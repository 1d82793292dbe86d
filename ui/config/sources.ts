/**
 * Where "Update from source" fetches each API's published file: the one place these addresses live. A
 * TypeScript module rather than a JSON file in public/: the addresses must agree with the Content Security
 * Policy's connect-src, which is fixed at build time too (docs/decisions/0800), and the entries are typed.
 */
import type { DatasetName } from '../../engine/http/types.ts';

export interface OfficialSource {
  dataset: DatasetName;
  /** Who publishes it, in words for the button's description. */
  publisher: string;
  url: string;
}

export const OFFICIAL_SOURCES: readonly OfficialSource[] = [
  {
    dataset: 'websites',
    publisher: 'GSA Site Scanning (latest snapshot, CSV, published daily)',
    url: 'https://api.gsa.gov/technology/site-scanning/data/site-scanning-latest.csv',
  },
  // The ceiling rates (CALC) have no published bulk file: add an entry here when one is configured.
];
