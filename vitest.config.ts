import { defineConfig } from 'vitest/config';

// Two projects: `unit` runs in Node over the engine and data layer; `e2e` drives Debian's Chromium
// against the built app and must run alone (one browser at a time on a 2-core machine).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // Vitest's default on two cores is one worker (cores - 1): the unit files are independent (each makes its
          // own databases, ports and temp directories), so both cores run them.
          maxWorkers: 2,
          globalSetup: ['tests/unit/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          // Closes any browser a file left open, so each file starts with none (tests/e2e/browser.ts).
          setupFiles: ['tests/e2e/setup-file.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
