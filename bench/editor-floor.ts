/**
 * Editor usable against its floor (issue 31.2): navigation → the query editor drawn with Run enabled,
 * the console (browser mode, `jql-console serve --local-admin`, demo workspace, fresh data directory)
 * side by side with the floor page (bench/console-floor.ts: built by the same Vite, only the console's
 * Monaco set-up and JSON language, one editor). Every load cold (a fresh browser context), loads
 * alternating so both see the same machine; the ratio of the medians is what counts (goal ≤ 1.2×),
 * the absolute times move with the load of the shared machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { startFloor } from './console-floor.ts';
import { ensureRenderer, findChromium, localAdmin, type LocalAdmin } from './console-page.ts';
import { median, startJqlCommand, type Child } from './load.ts';
import { mark, openPage } from './page-marks.ts';
import { table, type Section } from './report.ts';

const TITLE = 'Console: editor usable against the floor';

/** Navigation → editor drawn with Run enabled (on the floor page: the editor drawn). */
async function editorUsable(browser: Browser, url: string, storageState?: LocalAdmin['storageState']): Promise<number> {
  const { page, close } = await openPage(browser, url, storageState);
  try {
    return await mark(page, 'usable');
  } finally {
    await close();
  }
}

export async function editorFloorBench(options: { loads: number }): Promise<Section> {
  const found = findChromium();
  if (typeof found === 'string') return { title: TITLE, done: false, ratios: [], body: `Not measured: ${found}` };
  const missing = ensureRenderer();
  if (missing) return { title: TITLE, done: false, ratios: [], body: `Not measured: ${missing}` };
  const dataDir = mkdtempSync(join(tmpdir(), 'jql-bench-demo-'));
  let server: Child | null = null;
  let floor: Awaited<ReturnType<typeof startFloor>> | null = null;
  const browser = await chromium.launch({ executablePath: found.executablePath, args: found.args });
  try {
    server = await startJqlCommand(['serve', '--data', dataDir, '--port', '0', '--local-admin'], /listening on (http\S+)/);
    const admin = await localAdmin(server);
    floor = await startFloor();
    // One load of each to warm the servers' and the OS's file caches, which a user's second start has too.
    await editorUsable(browser, admin.url, admin.storageState);
    await editorUsable(browser, floor.url);
    const consoleUsable: number[] = [];
    const floorUsable: number[] = [];
    for (let i = 0; i < options.loads; i++) {
      consoleUsable.push(await editorUsable(browser, admin.url, admin.storageState));
      floorUsable.push(await editorUsable(browser, floor.url));
    }
    const consoleUsableMs = median(consoleUsable);
    const floorUsableMs = median(floorUsable);
    const overFloor = consoleUsableMs / floorUsableMs;
    const body = [
      `Navigation → the query editor drawn with Run enabled, each load cold (a fresh browser context, no cache; Chromium headless, 1440×860), on the page's clock (noted at the first animation frame that shows it). The console is \`jql-console serve --local-admin\` on the demo workspace with a fresh data directory, opened by its local admin (the launch link exchanged once; each context starts with its cookie and page secret); the floor is bench/floor, built by the same Vite into a temporary folder and served from loopback: the console's own Monaco set-up (src/renderer/monaco/monaco.ts: the same editor API, contributions, JSON language, workers and early JSON worker) and one editor on a JSON document, nothing else, built in the same mode (production, minified, ES-module workers) and served by a plain static server (each file read whole and sent in one write), which is as fast as serving gets: the floor, not a twin. After one load of each to warm the caches, ${options.loads} loads each, alternating.`,
      '',
      table(
        ['editor usable, cold (ms per load)', 'loads', 'median'],
        [
          ['the console: editor drawn, Run enabled', consoleUsable.map((ms) => ms.toFixed(0)).join(' / '), consoleUsableMs.toFixed(0)],
          ['the floor: the same Monaco set-up and JSON language alone (bench/floor, same Vite)', floorUsable.map((ms) => ms.toFixed(0)).join(' / '), floorUsableMs.toFixed(0)],
          ['the console over the floor', '', `${overFloor.toFixed(2)}×`],
        ],
      ),
    ].join('\n');
    return {
      title: TITLE,
      done: true,
      body,
      ratios: [
        { name: 'console: navigation → editor usable (drawn, Run enabled), cold', value: consoleUsableMs, unit: 'ms' },
        { name: 'floor page (the same Monaco + JSON alone): navigation → editor drawn, cold', value: floorUsableMs, unit: 'ms' },
        { name: 'console: editor usable (drawn, Run enabled) over the floor page (Monaco + JSON alone), cold', value: overFloor, unit: 'x', goal: '≤ 1.2x', met: overFloor <= 1.2 },
      ],
    };
  } finally {
    await browser.close();
    await floor?.stop();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
