/**
 * Reading benbalter/site-scanning-snapshots-experiment from its bare git directory: its weekly commits, and a
 * commit's `data/<initial_domain>.json` blobs, parsed. Build time only (it runs `git`).
 */
import { execFileSync } from 'node:child_process';

export const SOURCE_REPOSITORY = 'benbalter/site-scanning-snapshots-experiment';
export const SOURCE_LICENCE = 'CC0-1.0 (the data; the repository states it stays under the original snapshot licence)';

function git(dir: string, args: string[], input?: string): Buffer {
  return execFileSync('git', ['-C', dir, ...args], { input, maxBuffer: 1 << 30 });
}

/** The blob id of every `data/*.json` file at a commit, by path. */
export function listBlobs(dir: string, commit: string): Map<string, string> {
  // -z: four file names hold a newline (an initial_domain of several hosts), which git would otherwise quote.
  const entries = git(dir, ['ls-tree', '-r', '-z', commit, 'data/']).toString('utf8').split('\0');
  const blobs = new Map<string, string>();
  for (const entry of entries) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const path = entry.slice(tab + 1);
    if (path.endsWith('.json')) blobs.set(path, entry.slice(0, tab).split(' ')[2]);
  }
  return blobs;
}

/** Blobs read in one `git cat-file --batch`, parsed as JSON, in the order asked. */
export function readBlobs(dir: string, blobs: readonly string[]): Record<string, unknown>[] {
  const out = git(dir, ['cat-file', '--batch'], blobs.join('\n') + '\n');
  const records: Record<string, unknown>[] = [];
  let at = 0;
  while (at < out.length) {
    const headerEnd = out.indexOf(10, at);
    const size = Number(out.subarray(at, headerEnd).toString().split(' ')[2]);
    const start = headerEnd + 1;
    records.push(JSON.parse(out.subarray(start, start + size).toString('utf8')) as Record<string, unknown>);
    at = start + size + 1;
  }
  return records;
}

/** The weekly archive commits ("Archive snapshot"), oldest first. */
export function weeklyCommits(dir: string): { commit: string; date: string }[] {
  const lines = git(dir, ['log', '--reverse', '--format=%H %cd %s', '--date=format-local:%Y-%m-%d']).toString().trim().split('\n');
  return lines
    .filter((line) => line.includes('(Archive snapshot)'))
    .map((line) => {
      const [commit, date] = line.split(' ');
      return { commit, date };
    });
}
