import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The JSON report feeds the "N passed, N failed" line that .ci/run prints.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
