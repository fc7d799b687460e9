import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites start real servers and etcd processes; two cores run two files at a time.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
