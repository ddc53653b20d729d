/**
 * How the console's opening benches (console-opening.ts, editor-floor.ts) see a page open: each load
 * in a fresh browser context (nothing cached), with a script installed before any of the page's own
 * that notes, on the page's clock (`performance.now()`, 0 = navigation start), the first animation
 * frame at which each awaited element exists.
 */
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';

/** Installed before any script of the page: records when each awaited element first exists. */
export function installMarks(): void {
  const w = globalThis as any;
  const marks: Record<string, number> = {};
  w.__benchMarks = marks;
  const note = (name: string, present: boolean) => {
    if (present && marks[name] === undefined) marks[name] = w.performance.now();
  };
  const completion = () => [...w.document.querySelectorAll('.suggest-widget.visible .monaco-list-row')].some((row: any) => /__/.test(row.textContent ?? ''));
  let watching = false;
  // Checked at every frame (what the user sees changes no more often); a MutationObserver on the whole
  // page would run on each of Monaco's thousands of DOM changes and slow down what it measures. The
  // suggest widget alone is watched as it changes: the bench closes it again when it shows no keys.
  const check = () => {
    const editor = w.document.querySelector('[data-testid=query-editor] .monaco-editor') !== null;
    note('editor', editor);
    // Usable: the editor drawn and Run enabled (the floor page has no Run button: its editor is all).
    const run = w.document.querySelector('.btn-run');
    note('usable', editor && (run === null ? w.document.title === 'Monaco floor' : !run.disabled));
    note('answer', w.document.querySelector('[data-testid=payload-table] [role=rowgroup] [role=row]') !== null);
    note('completion', completion());
    const widget = w.document.querySelector('.suggest-widget');
    if (widget && !watching) {
      watching = true;
      new w.MutationObserver(() => note('completion', completion())).observe(widget, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    }
    if (Object.keys(marks).length < 4) w.requestAnimationFrame(check);
  };
  w.requestAnimationFrame(check);
}

/** When the page first showed `name` (ms from navigation start), waiting for it up to `timeoutMs`. */
export async function mark(page: Page, name: string, timeoutMs = 30_000): Promise<number> {
  await page.waitForFunction((n) => (globalThis as any).__benchMarks?.[n] !== undefined, name, { timeout: timeoutMs, polling: 20 });
  return page.evaluate((n) => (globalThis as any).__benchMarks[n] as number, name);
}

/**
 * A fresh browser context (no cache; `storageState`: cookies and localStorage it starts with, such as
 * the local admin's) with the marks installed, navigated to `url`.
 */
export async function openPage(browser: Browser, url: string, storageState?: BrowserContextOptions['storageState']): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 860 }, ...(storageState ? { storageState } : {}) });
  await context.addInitScript(installMarks);
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'commit' });
  return { page, close: () => context.close() };
}

