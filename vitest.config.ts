import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './scripts/test-sequencer.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
    environment: 'node',
    // Fails the run when a test leaves anything in the temp folder (scripts/test-temp-folder.ts).
    globalSetup: ['scripts/test-temp-folder.ts'],
    // The Node processes tests start get the server's TypeScript already stripped (scripts/test-child-node.ts).
    setupFiles: ['scripts/test-child-node.ts'],
    // vitest's default is one worker fewer than the cores: one file at a time on a 2-core machine, where
    // most slow files wait on the server or CLI processes they start and the other core sits idle. (One worker
    // more than the cores measured no better: 300 s against 286 s for the whole run.)
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The slowest files start first, also in a clean clone with no timings (scripts/test-sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The JSON report feeds the "N passed, N failed" line that .ci/run prints.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
