/**
 * e2e in Debian's Chromium (STACK.md: `npx playwright install` cannot work here) against a real
 * `jql-console serve` on a free port with a fresh data directory. The port and the directory are
 * chosen once by the runner and handed to its workers through the environment.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/** A free port, found synchronously (the config is evaluated before any server starts). */
function freePort(): string {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
}

process.env.JQL_E2E_PORT ??= freePort();
process.env.JQL_E2E_DATA ??= mkdtempSync(join(tmpdir(), 'jql-e2e-'));
const port = process.env.JQL_E2E_PORT;
const baseURL = `http://127.0.0.1:${port}`;

export const chromiumLaunchOptions = {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

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
  use: {
    baseURL,
    viewport: { width: 1440, height: 860 },
    launchOptions: chromiumLaunchOptions,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: `node bin/jql-console.mjs serve --port ${port} --data ${process.env.JQL_E2E_DATA} --local-admin`,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
