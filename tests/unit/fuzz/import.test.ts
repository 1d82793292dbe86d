/**
 * The import fuzzer's modest run (harness/fuzz/import-files.ts): 300 seeded files through the import
 * core. A failure names its seed; `npm run fuzz:import -- --seed S --files 1` replays it, and the script
 * runs as many more as asked.
 */
import { describe, expect, it } from 'vitest';
import { makeCase, runCase } from '../../../harness/fuzz/import-files.ts';

const FIRST_SEED = 1;
const FILES = 300;

describe('import fuzzer', () => {
  it(`${FILES} random and damaged files: each ends, adds up, stays bounded, and an undamaged one round-trips`, async () => {
    const results = new Map<string, number>();
    for (let seed = FIRST_SEED; seed < FIRST_SEED + FILES; seed++) {
      const { result } = await runCase(makeCase(seed));
      results.set(result, (results.get(result) ?? 0) + 1);
    }
    // The run must have covered both ends: files imported and files refused.
    expect(results.get('ok')).toBeGreaterThan(FILES / 3);
    expect([...results.keys()].filter((key) => key !== 'ok').length).toBeGreaterThan(0);
  });
});
