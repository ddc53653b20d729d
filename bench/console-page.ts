/**
 * What the console benchmarks share: the browser the machine has, the renderer as last built, the
 * way in as the local admin of `jql-console serve --local-admin`, and the JS heap as Chromium counts
 * it after a full garbage collection.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { CDPSession, Page } from '@playwright/test';
import { storageStateOf, type StorageState } from '../e2e/fixtures/launch.ts';
import { resolveChromium, type ChromiumChoice } from '../scripts/chromium/resolve-chromium.ts';
import type { Child } from './load.ts';

/** The browser to drive, or why there is none. */
export function findChromium(): ChromiumChoice | string {
  try {
    return resolveChromium();
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The renderer as last built (`npm run build`, which `npm test` runs too); built here only when
 * missing, so a run never rewrites out/ under a console someone else is serving from it.
 */
export function ensureRenderer(): string | null {
  if (existsSync('out/renderer/index.html')) return null;
  const build = spawnSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], { stdio: 'ignore', timeout: 300_000 });
  return build.status !== 0 || !existsSync('out/renderer/index.html') ? 'the renderer could not be built (`npm run build`).' : null;
}

/**
 * Where a browser goes to be the local admin: the launch URL the server prints after its listening
 * line (`Open http://…/?key=…`), or, from a server that prints none, its own URL.
 */
export async function consoleUrl(server: Child, waitMs = 3000): Promise<string> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const launch = /Open (http\S+)/.exec(server.output());
    if (launch) return launch[1] as string;
    if (Date.now() > deadline) return `${server.url}/`;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Where a local admin's browser opens the console, and what its contexts start with. */
export interface LocalAdmin {
  url: string;
  storageState: StorageState;
}

/**
 * The local admin of a `--local-admin` server, for many browser contexts: its launch URL exchanges
 * once (a second open says "already used"), so the exchange is made here, once, and each context
 * starts with what it left (the cookie and the page secret in localStorage; no cache), opening `url`.
 */
export async function localAdmin(server: Child, waitMs = 3000): Promise<LocalAdmin> {
  const launch = await consoleUrl(server, waitMs);
  if (!launch.includes('?key=')) throw new Error('the server printed no launch URL (was it started with --local-admin?)');
  return { url: `${server.url}/`, storageState: await storageStateOf(launch) };
}

/** The page's JS heap in use (main thread), in MiB, after a full garbage collection. */
export async function heapMiB(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize / 2 ** 20;
}

/** Waits until the embedded connection answers and the editor is on screen. */
export async function waitForConsole(page: Page): Promise<void> {
  const connections = page.getByRole('navigation', { name: 'Connections' });
  await connections.getByRole('listitem', { name: 'Embedded server' }).getByTestId('connection-status').filter({ hasText: /v\d/ }).waitFor({ timeout: 30_000 });
  await page.getByTestId('query-editor').locator('.monaco-editor').waitFor({ timeout: 30_000 });
}
