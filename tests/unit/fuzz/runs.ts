import type fc from 'fast-check';

/**
 * Fixed seeds and run counts by default, so a failure reproduces; FUZZ_SCALE multiplies the runs and
 * FUZZ_SEED shifts the seeds for a deeper search by hand (e.g. `FUZZ_SCALE=20 FUZZ_SEED=$RANDOM`).
 */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const SEED_SHIFT = Number(process.env.FUZZ_SEED ?? 0);

export const runs = (seed: number, numRuns: number): fc.Parameters<unknown> => ({
  seed: seed + SEED_SHIFT,
  numRuns: Math.max(1, Math.round(numRuns * SCALE)),
});
