import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['node_modules/**', 'data/**', 'dist/**'],
    testTimeout: 20000,
    globalSetup: ['test/global-setup.ts'],
  },
});
