import type { DatasetName } from '../../../engine/http/types.ts';
import type { LoadProgress } from '../../api/db-client.ts';
import { formatBytes } from '../common/format.ts';

type DatasetProgress = NonNullable<LoadProgress['datasets']>[DatasetName] & {};

const DATASET_TITLES: Partial<Record<DatasetName, string>> = { websites: 'The websites', ceilingrates: 'The ceiling rates' };

/** How the progress names a dataset ("The websites"), its registry name for one it has no words for. */
function title(name: DatasetName): string {
  return DATASET_TITLES[name] ?? `The ${name}`;
}

/** Bytes of a total, both in the unit of the total ("11.2 of 14.0 MB"). */
function ofTotal(received: number, total: number): string {
  const [amount, unit] = formatBytes(total).split(' ');
  const scale = unit === 'MB' ? 1024 * 1024 : unit === 'KB' ? 1024 : 1;
  return `${scale === 1 ? received : (received / scale).toFixed(1)} of ${amount} ${unit}`;
}

/** What one dataset's download is doing, in words: "Resuming at 11.2 of 14.0 MB", "Downloading 3.1 of 14.0 MB". */
export function downloadText(d: DatasetProgress): string {
  switch (d.phase) {
    case 'queued':
      return 'waiting for its turn (one download at a time)';
    case 'download':
      if (d.resumedAt !== null && d.received === d.resumedAt) return `Resuming at ${ofTotal(d.received, d.total)}`;
      return `Downloading ${d.patch ? 'only what changed, ' : ''}${ofTotal(d.received, d.total)}${d.resumedAt !== null ? ` (resumed at ${ofTotal(d.resumedAt, d.total).split(' of ')[0]})` : ''}`;
    case 'verify':
      return 'Checking';
    case 'decompress':
      return d.patch ? 'Applying the changes' : 'Unpacking';
    case 'open':
      return 'Opening';
    case 'ready':
      return 'ready';
    case 'error':
      return 'failed';
    case 'manifest':
      return 'Reading the manifest';
  }
}

/** One line per dataset of the load: which data is here and which is still on its way. */
export function datasetLines(p: LoadProgress): { name: DatasetName; text: string; ready: boolean }[] {
  return (Object.entries(p.datasets ?? {}) as [DatasetName, DatasetProgress][]).map(([name, d]) => ({
    name,
    ready: d.phase === 'ready',
    text: d.phase === 'ready' ? `${title(name)} are here: their views and API answer now.` : `${title(name)} are still on their way: ${downloadText(d)}.`,
  }));
}
