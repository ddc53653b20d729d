import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
    environment: 'node',
    // Fails the run when a test leaves anything in the temp folder (scripts/test-temp-folder.ts).
    globalSetup: ['scripts/test-temp-folder.ts'],
    // The Node processes tests start get the server's TypeScript already stripped (scripts/test-child-node.ts).
    setupFiles: ['scripts/test-child-node.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The JSON report feeds the "N passed, N failed" line that .ci/run prints.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
