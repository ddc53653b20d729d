/**
 * `npm run soak`: the hardening tests (src/server/hardening) in their long form: 60 s of load, more
 * fuzzing runs, more kill -9 rounds. Runs vitest with JQL_SOAK=1 (which every test there reads).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const result = spawnSync(process.execPath, [vitest, 'run', 'src/server/hardening', '--testTimeout=600000', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, JQL_SOAK: '1' },
});
process.exit(result.status ?? 1);
