/**
 * Two builds of the console side by side against the floor page (issue 31): what `--only=floor`
 * measures (bench/editor-floor.ts: navigation → editor drawn with Run enabled, each load cold), for
 * several trees in one run, loads alternating between them and the floor, so that every build sees
 * the same machine. On a loaded machine one build per run says little: single loads move by ±40%.
 *
 *   node --disable-warning=ExperimentalWarning bench/editor-floor-builds.ts BEFORE AFTER [--loads=9]
 *
 * Each argument is a tree with the console's `bin/`, `src/` and its build in `out/` (a copy of the
 * checkout at that commit after `npm run build`, with `node_modules` linked): its own `jql-console serve
 * --local-admin` serves it. Prints, per tree, the median time, its ratio over the floor's median, and
 * the median of the per-round ratios (each load over the floor's load of the same round).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { startFloor } from './console-floor.ts';
import { findChromium, localAdmin, type LocalAdmin } from './console-page.ts';
import { JQL_NODE_FLAGS, median, startNode, type Child } from './load.ts';
import { mark, openPage } from './page-marks.ts';

const { values, positionals } = parseArgs({ options: { loads: { type: 'string', default: '9' } }, allowPositionals: true });
const loads = Number(values.loads);
if (positionals.length === 0 || !Number.isInteger(loads) || loads < 1) {
  console.error('usage: bench/editor-floor-builds.ts TREE... [--loads=N]');
  process.exit(2);
}

interface Target {
  name: string;
  url: string;
  storageState?: LocalAdmin['storageState'];
}

async function usable(browser: Browser, target: Target): Promise<number> {
  const { page, close } = await openPage(browser, target.url, target.storageState);
  try {
    return await mark(page, 'usable');
  } finally {
    await close();
  }
}

const found = findChromium();
if (typeof found === 'string') throw new Error(found);
const browser = await chromium.launch({ executablePath: found.executablePath, args: found.args });
const servers: Child[] = [];
const dataDirs: string[] = [];
let floor: Awaited<ReturnType<typeof startFloor>> | null = null;
try {
  const targets: Target[] = [];
  for (const tree of positionals) {
    const dataDir = mkdtempSync(join(tmpdir(), 'jql-bench-builds-'));
    dataDirs.push(dataDir);
    const server = await startNode([resolve(tree, 'bin/jql-console.mjs'), 'serve', '--data', dataDir, '--port', '0', '--local-admin'], /listening on (http\S+)/, { nodeArgs: JQL_NODE_FLAGS });
    servers.push(server);
    const admin = await localAdmin(server);
    targets.push({ name: tree, url: admin.url, storageState: admin.storageState });
  }
  floor = await startFloor();
  targets.push({ name: 'floor', url: floor.url });
  // One load of each to warm the servers' and the OS's file caches, as editor-floor.ts does.
  for (const target of targets) await usable(browser, target);
  const times: number[][] = targets.map(() => []);
  for (let round = 0; round < loads; round++) for (const [i, target] of targets.entries()) times[i]!.push(await usable(browser, target));
  const floorTimes = times[times.length - 1]!;
  const floorMedian = median(floorTimes);
  for (const [i, target] of targets.entries()) {
    const own = times[i]!;
    const paired = median(own.map((ms, round) => ms / floorTimes[round]!));
    console.log(`${target.name}: median ${median(own).toFixed(0)} ms, over the floor ${(median(own) / floorMedian).toFixed(2)}x, per round ${paired.toFixed(2)}x [${own.map((ms) => ms.toFixed(0)).join(' / ')}]`);
  }
} finally {
  await browser.close();
  await floor?.stop();
  for (const server of servers) await server.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
