// Prints "N passed, N failed" from the JSON reports that `npm test` writes (vitest and Playwright),
// so CI can tell a green run from one that ran no test.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;

const vitest = 'reports/vitest.json';
if (existsSync(vitest)) {
  const report = JSON.parse(readFileSync(vitest, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

const e2e = 'reports/playwright.json';
if (existsSync(e2e)) {
  const report = JSON.parse(readFileSync(e2e, 'utf8'));
  passed += report.stats?.expected ?? 0;
  failed += (report.stats?.unexpected ?? 0) + (report.stats?.flaky ?? 0);
  skipped += report.stats?.skipped ?? 0;
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
