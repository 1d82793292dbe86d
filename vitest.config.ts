import { defineConfig } from 'vitest/config';

// Two projects: `unit` runs in Node over the engine and data layer; `e2e` drives the browsers against the built app,
// one file at a time (one browser at a time on a 2-core machine). `npm test` runs them as two vitest processes side by
// side (scripts/run-suites.mjs): in one process, vitest starts a project whose files run one at a time only after
// every other project's files are done.
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
          // A file's setup may wait for the real fixtures the global setup is still building (harness/real-fixtures.ts).
          hookTimeout: 600_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          // Closes any browser a file left open, so each file starts with none (harness/browsers/browser.ts).
          setupFiles: ['tests/e2e/setup-file.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
