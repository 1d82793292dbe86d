/**
 * Runs in every browser test file: whatever browser the file launched and left open (a setup that failed
 * before the file's own afterAll could close it) is closed when the file ends, so that no file's page,
 * profile or Chromium outlives it into the next file.
 */
import { afterAll } from 'vitest';
import { closeLeftOpen } from '../../harness/browsers/left-open.ts';

afterAll(async () => {
  const left = await closeLeftOpen();
  if (left) console.warn(`${left} browser(s) left open by this file were closed`);
});
