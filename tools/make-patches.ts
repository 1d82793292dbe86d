/**
 * Patches for a deployment whose users keep an earlier build's datasets (docs/decisions/0407):
 *   npm run data:patches -- <the earlier build's data directory>   (or: tsx tools/make-patches.ts --from DIR [--to public/data])
 * Run it after `npm run data` and before `vite build`, which copies public/data into the app.
 */
import { parseArgs } from 'node:util';
import { addPatches } from './dataset-patches.ts';

const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string', default: 'public/data' } } });
if (!values.from) throw new Error('usage: tsx tools/make-patches.ts --from <earlier data directory> [--to public/data]');
await addPatches(values.from, values.to!);
