/**
 * Longest main-thread task per hostile answer (issue 31): the console (Chromium headless, browser
 * mode, the renderer as last built) with a remote connection to each entry of the hostile catalogue
 * (e2e/fixtures/hostile-server.ts) that answers in the Query view, however many entries it holds.
 * For each entry: Run until the answer shows, then every response view opened in turn; the longest
 * task (Long Tasks API, measured inside the page; 0 when none passed 50 ms) of each step, and of the
 * entry the step where it happened. Goal: under 200 ms, whatever the count in the answer.
 * `--profile`: every step over the goal is run once more under the CPU profiler (CDP), and the
 * functions with the most time in that step go into the report.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { HOSTILE_CATALOGUE } from '../e2e/fixtures/hostile-server.ts';
import { ensureRenderer, findChromium } from './console-page.ts';
import { openOn } from './hostile.ts';
import { startJqlCommand, startNode, type Child } from './load.ts';
import { summarize } from './profile-summary.ts';
import { table, type Section } from './report.ts';

const TITLE = 'Console: longest main-thread task per hostile answer';
const GOAL_MS = 200;

/** Every entry whose answer shows in the Query view and ends by itself (no Cancel, no sign-in). */
const entries = (only?: string[]) => HOSTILE_CATALOGUE.filter((e) => e.showsIn === 'query' && !e.hangs && !e.signIn && (!only || only.includes(e.name)));

export interface StepTask {
  /** `Run` (until the answer shows, in the view it opens on) or the name of the response view opened. */
  step: string;
  ms: number;
}

/** Installed before the page's scripts: keeps the longest task since the last read. */
function observeLongTasks(): void {
  const w = globalThis as any;
  w.__longest = 0;
  w.__longTasks = new w.PerformanceObserver((list: any) => {
    for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
  });
  w.__longTasks.observe({ type: 'longtask', buffered: false });
}

/**
 * Waits until the page is idle after a step (two frames, then a quiet moment: a task that blocks
 * the thread delays this too), then reads the longest task since the last read and starts again.
 */
async function readLongest(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const w = globalThis as any;
    await new Promise<void>((done) => w.requestAnimationFrame(() => w.requestAnimationFrame(() => w.setTimeout(done, 300))));
    // Records not yet handed to the callback count too.
    for (const e of w.__longTasks.takeRecords()) w.__longest = Math.max(w.__longest, e.duration);
    const longest = w.__longest as number;
    w.__longest = 0;
    return longest;
  });
}

/** The tab's label without its badge (the badge is a separate, aria-hidden span). */
const viewName = (page: Page, index: number) =>
  page
    .getByRole('tablist', { name: 'Response views' })
    .getByRole('tab')
    .nth(index)
    .evaluate((tab) => [...tab.childNodes].filter((n) => !(n as { classList?: { contains(c: string): boolean } }).classList?.contains('tab-badge')).map((n) => n.textContent ?? '').join('').trim());

/**
 * Runs the entry's query and opens each response view, measuring each step; with `profileStep`,
 * that step alone runs under the CPU profiler and its profile is handed back.
 */
async function walk(browser: Browser, consoleUrl: string, base: string, profileStep?: string): Promise<{ steps: StepTask[]; profile: object | null }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
  let cdp: CDPSession | null = null;
  let profile: object | null = null;
  const step = async (name: string, act: () => Promise<void>): Promise<StepTask> => {
    const profiled = name === profileStep && cdp !== null;
    if (profiled) await cdp!.send('Profiler.start');
    await act();
    const ms = await readLongest(page);
    if (profiled) profile = (await cdp!.send('Profiler.stop')).profile;
    return { step: name, ms };
  };
  try {
    await page.addInitScript(observeLongTasks);
    if (profileStep) {
      cdp = await page.context().newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    }
    await openOn(page, consoleUrl, base);
    // Opening the console is the opening bench's measure: only the entry's own work counts here.
    await page.waitForTimeout(500);
    await readLongest(page);
    const steps: StepTask[] = [];
    steps.push(
      await step('Run', async () => {
        await page.getByRole('button', { name: /^Run/ }).click();
        await page.getByTestId('response-status').or(page.getByTestId('response-failed')).first().waitFor({ timeout: 120_000 });
      }),
    );
    const views = page.getByRole('tablist', { name: 'Response views' }).getByRole('tab');
    const count = await views.count();
    for (let i = 0; i < count; i++) {
      if ((await views.nth(i).isDisabled()) || (await views.nth(i).getAttribute('aria-selected')) === 'true') continue;
      const name = await viewName(page, i);
      let opened = true;
      const measured = await step(name, async () => {
        await views.nth(i).click({ timeout: 120_000 });
        // The Errors tab of an answer without errors stays where it is: that view is not offered.
        opened = await views
          .nth(i)
          .locator('xpath=self::*[@aria-selected="true"]')
          .waitFor({ timeout: 2_000 })
          .then(() => true)
          .catch(() => false);
      });
      if (opened) steps.push(measured);
    }
    return { steps, profile };
  } finally {
    await cdp?.detach().catch(() => undefined);
    await page.close();
  }
}

export interface EntryTasks {
  entry: string;
  steps: StepTask[];
  /** The top functions of the worst step, under the profiler (only with `--profile`, over the goal). */
  profile?: string;
  /** Why the entry could not be walked. */
  error?: string;
}

const worst = (steps: StepTask[]): StepTask => steps.reduce((a, b) => (b.ms > a.ms ? b : a), { step: '—', ms: 0 });

/** `entries`: the names of the catalogue entries to walk (all that answer in the Query view when absent). */
export async function longTasksBench(options: { profile: boolean; entries?: string[] }): Promise<Section> {
  const chromiumChoice = findChromium();
  if (typeof chromiumChoice === 'string') return { title: TITLE, done: false, ratios: [], body: `Not measured: ${chromiumChoice}` };
  const missing = ensureRenderer();
  if (missing) return { title: TITLE, done: false, ratios: [], body: `Not measured: ${missing}` };
  const dataDir = mkdtempSync(join(tmpdir(), 'jql-bench-tasks-'));
  const scratch = mkdtempSync(join(tmpdir(), 'jql-bench-tasks-profiles-'));
  let server: Child | null = null;
  // Its own process: writing 50,000 errors must not share an event loop with the driver.
  const hostile = await startNode(['bench/servers/hostile.ts'], /listening (http\S+)/);
  const browser = await chromium.launch({ executablePath: chromiumChoice.executablePath, args: chromiumChoice.args });
  try {
    server = await startJqlCommand(['serve', '--data', dataDir, '--port', '0', '--local-admin'], /listening on (http\S+)/);
    const results: EntryTasks[] = [];
    for (const entry of entries(options.entries)) {
      const base = `${hostile.url}/${entry.name}`;
      let result: EntryTasks;
      try {
        result = { entry: entry.name, steps: (await walk(browser, server.url, base)).steps };
      } catch (error) {
        // One entry the walk cannot finish is reported as such; the others are still measured.
        const reason = (error as Error).message.split('\n')[0] ?? '';
        console.log(`  ${entry.name}: not measured: ${reason}`);
        results.push({ entry: entry.name, steps: [], error: reason });
        continue;
      }
      const { steps } = result;
      const over = worst(steps);
      console.log(`  ${entry.name}: ${steps.map((s) => `${s.step} ${s.ms.toFixed(0)} ms`).join(', ')}`);
      if (options.profile && over.ms > GOAL_MS) {
        const { profile } = await walk(browser, server.url, base, over.step);
        if (profile) {
          const file = join(scratch, `${entry.name}.cpuprofile`);
          writeFileSync(file, JSON.stringify(profile));
          result.profile = summarize(file, 12);
          console.log(`  ${entry.name}, CPU profile of ${over.step}:\n${result.profile}`);
        }
      }
      results.push(result);
    }
    const viewsSeen = [...new Set(results.flatMap((r) => r.steps.map((s) => s.step)))];
    const body = [
      `The console (browser mode, Chromium headless, 1440×860) with a remote connection to each entry of the hostile catalogue (\`e2e/fixtures/hostile-server.ts\`) that answers in the Query view. Per entry: Run until the answer shows, then each response view opened in turn; the longest main-thread task of each step (Long Tasks API inside the page; 0: none over 50 ms). Load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(', ')}.`,
      '',
      table(
        ['entry', 'longest task', 'in', 'goal'],
        results.map((r) => {
          const w = worst(r.steps);
          if (r.error) return [r.entry, 'not measured', r.error.replace(/\|/g, '/'), `< ${GOAL_MS} ms`];
          return [r.entry, `${w.ms.toFixed(0)} ms`, w.ms > 0 ? w.step : '', w.ms < GOAL_MS ? `< ${GOAL_MS} ms` : `**over ${GOAL_MS} ms**`];
        }),
      ),
      '',
      'Each step (ms; "Run" ends when the answer shows in the view it opens on; —: the view is not offered for that answer):',
      '',
      table(
        ['entry', ...viewsSeen],
        results.map((r) => [r.entry, ...viewsSeen.map((v) => r.steps.find((s) => s.step === v)?.ms.toFixed(0) ?? '—')]),
      ),
      ...results.filter((r) => r.profile).flatMap((r) => ['', `CPU profile of ${r.entry}, step ${worst(r.steps).step}:`, '', '```', r.profile!, '```']),
    ].join('\n');
    return {
      title: TITLE,
      done: true,
      body,
      ratios: results.map((r) => {
        const w = worst(r.steps);
        return { name: `longest main-thread task, ${r.entry}${r.error ? ' (not measured)' : w.ms > 0 ? ` (${w.step})` : ''}`, value: w.ms, unit: 'ms' as const, goal: `< ${GOAL_MS} ms`, met: !r.error && w.ms < GOAL_MS };
      }),
    };
  } finally {
    await browser.close();
    await server?.stop();
    await hostile.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}
