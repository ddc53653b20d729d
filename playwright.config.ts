/**
 * e2e in Chromium against a real `jql-console serve --local-admin`: one per worker, on a free port
 * with a fresh data directory and its own copy of the demo collection, started by the worker fixture
 * of e2e/fixtures/test.ts, which also opens the launch URL the server prints and keeps the cookie it
 * sets as every context's storage state (the page never holds a credential). So specs in two
 * workers never share a server's state. The browser comes from scripts/chromium (JQL_CHROMIUM,
 * Playwright's own, a system one, or the @sparticuz/chromium package), so a fresh machine needs
 * nothing installed by hand; it is chosen once by the runner and handed to its workers through the
 * environment.
 */
import { defineConfig } from '@playwright/test';
import { chromiumForThisRun, type ChromiumChoice } from './scripts/chromium/resolve-chromium.ts';

let chromium: ChromiumChoice;
try {
  const first = process.env.JQL_CHROMIUM_RESOLVED === undefined;
  chromium = chromiumForThisRun();
  if (first) console.log(`Browser tests run in ${chromium.executablePath} (${chromium.source}).`);
} catch (error) {
  // One sentence for the whole run, not a launch failure per spec.
  console.error((error as Error).message);
  process.exit(1);
}

const chromiumLaunchOptions = { executablePath: chromium.executablePath, args: chromium.args };

export default defineConfig({
  testDir: 'e2e',
  testIgnore: ['electron/**'],
  // Each worker has its own console server (e2e/fixtures/test.ts), so two workers never share a
  // server's state. Two workers on two cores: a test mostly waits on its browser's renderer and its
  // server in turn, so a second test fills the gaps. (Monaco's validation race that two workers once
  // made visible in e2e/variables.spec.ts is gone: the markers of an older text are not trusted.)
  workers: 2,
  fullyParallel: false,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: {
    viewport: { width: 1440, height: 860 },
    launchOptions: chromiumLaunchOptions,
    // An action that cannot happen fails on its own step, instead of the whole test timing out.
    actionTimeout: 20_000,
    // A failed test keeps its trace: the DOM of the page after each action, to open in the trace
    // viewer. Without the screencast, which made every test about twice as slow on a loaded machine
    // (measured side by side: 1.9x with it, 1.1x with DOM snapshots only), and without a screenshot
    // at the end, which Playwright takes for every test before it knows the outcome (the trace's
    // last snapshot shows the same page).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'off',
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
