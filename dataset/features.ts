/**
 * What the app asks of a dataset beside its API (price figures, roll-ups, snapshot diffs…): each dataset's
 * features live in its own folder and are listed here, one line each. The DB worker exposes them as they are.
 */
import type { FeatureHost, Transfer } from './feature-host.ts';
import { websitesFeatures } from './websites/features.ts';
import { weeksFeatures } from './websites/weeks.ts';
import { ceilingRatesFeatures } from './ceilingrates/features.ts';

export function datasetFeatures(host: FeatureHost, transfer: Transfer = (value) => value) {
  return {
    ...websitesFeatures(host),
    ...weeksFeatures(host),
    ...ceilingRatesFeatures(host, transfer),
  };
}

export type DatasetFeatures = ReturnType<typeof datasetFeatures>;
