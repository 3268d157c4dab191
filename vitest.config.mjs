import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['__tests__/**/*.test.{ts,mjs}'],
    // Native addons and worker threads mix badly; forks are the safe pool.
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 300_000,
    setupFiles: ['__tests__/helpers/setup.ts'],
  },
});
