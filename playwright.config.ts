/**
 * e2e in Chromium against a real `jql-console serve --local-admin` on a free port with a fresh data
 * directory, started by e2e/fixtures/global-setup.ts, which also opens the launch URL the server prints
 * and keeps the cookie it sets as every context's storage state (the page never holds a credential).
 * The browser comes from scripts/chromium (JQL_CHROMIUM, Playwright's own, a system one, or the
 * @sparticuz/chromium package), so a fresh machine needs nothing installed by hand. The port, the
 * directories and the browser are chosen once by the runner and handed to its workers through the
 * environment.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumForThisRun, type ChromiumChoice } from './scripts/chromium/resolve-chromium.ts';

/** A free port, found synchronously (the config is evaluated before any server starts). */
function freePort(): string {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
}

process.env.JQL_E2E_PORT ??= freePort();
if (process.env.JQL_E2E_DATA === undefined) {
  // Made by the runner (workers inherit it): removed when the runner exits, after the server stopped.
  const dataDir = mkdtempSync(join(tmpdir(), 'jql-e2e-'));
  process.env.JQL_E2E_DATA = dataDir;
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}
if (process.env.JQL_E2E_COLLECTIONS === undefined) {
  // The collection folders the console serves: a copy of the demo collection the specs may edit.
  const collections = mkdtempSync(join(tmpdir(), 'jql-e2e-collections-'));
  cpSync('examples/demo-collection', join(collections, 'demo-collection'), { recursive: true });
  process.env.JQL_E2E_COLLECTIONS = collections;
  process.on('exit', () => rmSync(collections, { recursive: true, force: true }));
}
if (process.env.JQL_E2E_STATE === undefined) {
  // The browser storage state global-setup writes: the local admin cookie of this run's server.
  const stateDir = mkdtempSync(join(tmpdir(), 'jql-e2e-state-'));
  process.env.JQL_E2E_STATE = join(stateDir, 'local-admin.json');
  process.on('exit', () => rmSync(stateDir, { recursive: true, force: true }));
}
const port = process.env.JQL_E2E_PORT;
const baseURL = `http://127.0.0.1:${port}`;

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
  // Two cores shared with other suites: one worker, specs in file order.
  workers: 1,
  fullyParallel: false,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  globalSetup: './e2e/fixtures/global-setup.ts',
  use: {
    baseURL,
    storageState: process.env.JQL_E2E_STATE,
    viewport: { width: 1440, height: 860 },
    launchOptions: chromiumLaunchOptions,
    // An action that cannot happen fails on its own step, instead of the whole test timing out.
    actionTimeout: 20_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
