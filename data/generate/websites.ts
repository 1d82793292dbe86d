// PLACEHOLDER until the websites generator lands.
import type { DatasetDefinition } from '../datasets.ts';

export const websitesDataset: DatasetDefinition = {
  name: 'websites',
  title: 'websites',
  seed: 1,
  profiles: { default: 0, small: 0 },
  createSchema: () => {},
  generate: () => {
    throw new Error('websites generator not written yet');
  },
  countRows: () => ({}),
};
