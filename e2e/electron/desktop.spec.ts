/** The desktop app: a locked-down window, the embedded server signed in, a query run through main. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import type { BrowserGlobals } from '../pages/browser-globals.ts';
import { ConsolePage } from '../pages/console-page.ts';

let app: ElectronApplication;

test.beforeEach(async () => {
  app = await electron.launch({ args: ['.'], env: { ...process.env, JQL_USER_DATA_DIR: mkdtempSync(join(tmpdir(), 'jql-electron-')) } });
});

test.afterEach(async () => {
  await app.close();
});

test('opens the console on the embedded server, signed in, and runs a query', async () => {
  const page = new ConsolePage(await app.firstWindow());
  await expect(page.connection('Embedded server').getByTestId('connection-status')).toContainText(/v\d/);
  await expect(page.connectionUser('Embedded server')).toBeVisible();
  await page.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 3 } });
  await page.run();
  await expect(page.status).toHaveText(/^200/);
  await expect(page.tableRows).toHaveCount(3);
});

test('the window is isolated: no Node, only the typed bridge', async () => {
  const window = await app.firstWindow();
  expect(await window.evaluate(() => typeof (globalThis as unknown as BrowserGlobals).require)).toBe('undefined');
  expect(await window.evaluate(() => typeof (globalThis as unknown as BrowserGlobals).process)).toBe('undefined');
  const bridge = await window.evaluate(() => Object.keys((globalThis as unknown as BrowserGlobals).jql ?? {}));
  expect(bridge).toContain('request');
  expect(bridge).not.toContain('ipcRenderer');
  expect(bridge).not.toContain('invoke');
  expect(window.url()).toBe('app://console/index.html');
});
