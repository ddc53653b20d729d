import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import SlowFirstSequencer from './scripts/test-sequencer.ts';
import { ISOLATED_TEST_FILES } from './scripts/test-isolation.ts';

const ALL_TESTS = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    // Fails the run when a test leaves anything in the temp folder (scripts/test-temp-folder.ts).
    globalSetup: ['scripts/test-temp-folder.ts'],
    // The Node processes tests start get the server's TypeScript already stripped (scripts/test-child-node.ts);
    // each file's temp folders go when it ends (scripts/test-file-cleanup.ts).
    setupFiles: ['scripts/test-child-node.ts', 'scripts/test-file-cleanup.ts'],
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
    // Most files share their worker's modules (scripts/test-isolation.ts says why and which do not).
    // Each project names its own files: `extends` joins a project's arrays to the root's, so a root
    // `include` would put every file in both.
    projects: [
      { extends: true, test: { name: 'shared', include: ALL_TESTS, exclude: [...configDefaults.exclude, ...ISOLATED_TEST_FILES], isolate: false } },
      { extends: true, test: { name: 'isolated', include: [...ISOLATED_TEST_FILES], isolate: true } },
    ],
  },
});
