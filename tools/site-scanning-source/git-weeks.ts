/**
 * Every week of benbalter/site-scanning-snapshots-experiment (its weekly archive commits), less its stale files,
 * read from the bare git directory of a fetched copy: what extract.ts writes data/'s weeks from, and what
 * `load:history --git` checks them against. Build time only (it runs `git`).
 *
 * The copying job writes one file per site each week and never deletes a file, so a site that left the published
 * snapshot keeps the file of the last week it was in. Such a file is told apart by three things, all of which must
 * hold (STALE_RULE): its blob at that week is the blob of the week before (not written anew); it is the same blob
 * in every later week up to the newest (never written again); and in the newest week its record still has the
 * `public` key, which the job stopped writing on 2025-05-19 (so it certainly was not written since). In the newest
 * week the third alone decides, and the first two must then agree with it (checked). A site whose last write left
 * its record unchanged from the week before is dropped from that week too, one week early: the blobs cannot tell
 * an unchanged write from no write. The first week has no week before it, so none of its files are dropped.
 */
import { listBlobs, readBlobs, weeklyCommits } from './git-snapshot.ts';
import type { SourceRecord } from './week-changes.ts';

export const STALE_RULE =
  'a file is stale in a week (its site had left the published snapshot, and the job never deletes a file) when its blob that week ' +
  'is the blob of the week before, stays the same in every later week, and its record in the newest week still has the `public` key ' +
  'that the job stopped writing on 2025-05-19. Stale files are dropped; the first week keeps every file (no week before it).';

export interface GitWeek {
  date: string;
  commit: string;
  /** `data/*.json` files in the commit. */
  files: number;
  /** The paths dropped as stale. */
  stale: ReadonlySet<string>;
}

/** The weekly commits oldest first, with each week's stale files. Reads the trees and only the newest records it must. */
export function gitWeeks(dir: string): GitWeek[] {
  const commits = weeklyCommits(dir);
  const trees = commits.map(({ commit }) => listBlobs(dir, commit));
  const newest = trees[trees.length - 1];
  // The newest week's files whose record has the old shape.
  const paths = [...newest.keys()];
  const oldShape = new Set<string>();
  readBlobs(
    dir,
    paths.map((path) => newest.get(path)!),
  ).forEach((record, i) => {
    if ('public' in record) oldShape.add(paths[i]);
  });
  return commits.map(({ commit, date }, i) => {
    const tree = trees[i];
    const stale = new Set<string>();
    if (i > 0) {
      for (const [path, blob] of tree) {
        if (!oldShape.has(path) || trees[i - 1].get(path) !== blob) continue;
        if (trees.slice(i + 1).every((later) => later.get(path) === blob)) stale.add(path);
      }
    }
    if (i === trees.length - 1 && stale.size !== oldShape.size) {
      // Every old-shape record must be one the job stopped rewriting, or the rule no longer describes the data.
      throw new Error(`${date}: ${stale.size} files unchanged since an earlier week, but ${oldShape.size} records with the old shape`);
    }
    return { date, commit, files: tree.size, stale };
  });
}

/** One week's records, less its stale files, by path in path order. */
export function gitWeekRecords(dir: string, week: GitWeek): Map<string, SourceRecord> {
  const blobs = listBlobs(dir, week.commit);
  const paths = [...blobs.keys()].filter((path) => !week.stale.has(path)).sort();
  const parsed = readBlobs(
    dir,
    paths.map((path) => blobs.get(path)!),
  );
  return new Map(paths.map((path, i) => [path, parsed[i]]));
}
