/**
 * A second thread for the data build: the machine a newcomer runs `npm start` on may have two cores, and the
 * build's thread is busy importing the newest Site Scanning week and the rates. Every week's tables (the weeks
 * attachment) and the generated datasets are written on this one meanwhile (decision 0106).
 */
import { startJobThread, type JobThread } from './job-thread.ts';
import type { DatasetName } from '../engine/http/types.ts';
import type { DatasetSource } from '../dataset/artifact/format.ts';

export type BuildJob = { kind: 'weeks' } | { kind: 'week'; date: string } | { kind: 'generated'; name: DatasetName; size: 'default' | 'small' };
/** The job's database as bytes (not yet in its shipped form). */
export interface BuildResult {
  raw: Uint8Array;
  source?: DatasetSource;
}

export type BuildWorker = JobThread<BuildJob, BuildResult>;

export function startBuildWorker(): BuildWorker {
  return startJobThread(new URL('./build-thread.ts', import.meta.url), 'build thread');
}
