import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    exclude: ['node_modules/**', 'data/**', 'dist/**'],
    testTimeout: 20000,
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['**/*.test.ts', '**/*.test.tsx'],
          exclude: ['node_modules/**', 'data/**', 'dist/**', '**/*.browser.test.ts', '**/*.process.test.ts'],
        },
      },
      {
        // Real server processes (test/e2e/README.md): last, one file at a time, so their
        // start-up budget is measured without the rest of the suite competing for the CPU.
        extends: true,
        test: {
          name: 'process',
          include: ['test/e2e/**/*.process.test.ts'],
          testTimeout: 90000,
          hookTimeout: 90000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
      {
        // Real Chromium against the real server (test/browser/README.md). It runs after the
        // unit project, one file at a time, so its real 1 s / 2 s timings do not compete
        // with the rest of the suite for the CPU.
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.browser.test.ts'],
          globalSetup: ['test/browser/global-setup.ts'],
          testTimeout: 60000,
          hookTimeout: 60000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          // Page states arrive over a DevTools round trip; 1 s is short on a loaded machine.
          expect: { poll: { timeout: 5000 } },
        },
      },
    ],
  },
});
