// PLACEHOLDER until the ceilingrates generator lands.
import type { DatasetDefinition } from '../datasets.ts';

export const ceilingRatesDataset: DatasetDefinition = {
  name: 'ceilingrates',
  title: 'ceilingrates',
  seed: 1,
  profiles: { default: 0, small: 0 },
  createSchema: () => {},
  generate: () => {
    throw new Error('ceilingrates generator not written yet');
  },
  countRows: () => ({}),
};
