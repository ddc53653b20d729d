/**
 * The console without a mouse: a query typed and run, its answer's cells walked with the arrow keys
 * and a column sorted from its header, a dialog opened and closed with Escape, a subscription made
 * and an upload sent, all with page.keyboard. The page counts every pointer or mouse button event it
 * receives, and the walk ends by requiring that count to be zero.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';
import type { BrowserGlobals } from './pages/browser-globals.ts';
import { StreamsPage } from './pages/streams-page.ts';
import { UploadPage } from './pages/upload-page.ts';

type Counting = BrowserGlobals & { addEventListener(type: string, listener: () => void, capture: boolean): void; pointerEvents?: number };

/** Presses Tab (or Shift+Tab) until `target` has the focus, or holds it; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, options: { back?: boolean; max?: number } = {}): Promise<void> {
  const { back = false, max = 80 } = options;
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const focused = await target.evaluate((el) => el.contains((globalThis as unknown as BrowserGlobals).document.activeElement as never)).catch(() => false);
    if (focused) return;
  }
  throw new Error(`${String(target)} was not reached with ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}`);
}

test('a query, its answer, a dialog, a subscription and an upload, with the keyboard alone', async ({ app, page }) => {
  test.setTimeout(120_000);
  await page.evaluate(() => {
    const w = globalThis as unknown as Counting;
    w.pointerEvents = 0;
    for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'mousemove', 'wheel']) w.addEventListener(type, () => (w.pointerEvents = (w.pointerEvents ?? 0) + 1), true);
  });

  // A query: Tab into the editor, type it, run it with Ctrl/Cmd+Enter.
  await tabTo(page, app.editor);
  await page.keyboard.press('ControlOrMeta+A');
  // Pasted (Ctrl+V's event): typed JSON would get auto-closed brackets.
  await app.paste(JSON.stringify({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', ordering: ['id'], limit: 5 } }));
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(app.status).toHaveText(/^200/);

  // Its answer: Tab leaves the editor once Ctrl+M makes Tab move the focus (Monaco's own toggle), and the
  // grid is a single tab stop whose cells the arrow keys walk.
  await page.keyboard.press('Control+M');
  const firstCell = app.tableRows.nth(0).getByRole('gridcell').nth(0);
  await tabTo(page, firstCell);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const reached = app.tableRows.nth(2).getByRole('gridcell').nth(1);
  await expect(reached).toBeFocused();
  await expect(reached).toHaveAttribute('aria-selected', 'true');
  await expect(app.table.locator('[tabindex="0"]')).toHaveCount(1);
  // Up past the first row to the column header; Enter sorts by it, ArrowDown comes back to the cells.
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
  const header = app.table.getByRole('columnheader').nth(2);
  await expect(header.getByRole('button')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await page.keyboard.press('ArrowDown');
  await expect(app.tableRows.nth(0).getByRole('gridcell').nth(1)).toBeFocused();

  // A dialog: opened with Enter, closed with Escape.
  await tabTo(page, app.addConnectionButton, { back: true });
  await page.keyboard.press('Enter');
  await expect(app.connectionDialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(app.connectionDialog).toBeHidden();

  // A subscription: the Streams view by its shortcut, the form by Tab.
  const streams = new StreamsPage(page);
  await page.keyboard.press('Alt+3');
  await expect(app.viewPanel('Streams')).toBeVisible();
  await expect(streams.connectionState).toContainText('open');
  await tabTo(page, streams.namespace);
  await page.keyboard.type('tickets.Ticket');
  await tabTo(page, streams.subscribeButton);
  await page.keyboard.press('Enter');
  await expect(streams.subscription('s1')).toContainText('active');

  // An upload: the target picked by typing its name, the fields typed, the file chosen from the
  // picker that Space opens, sent with Enter.
  const upload = new UploadPage(page);
  await page.keyboard.press('Alt+2');
  await expect(app.viewPanel('Upload')).toBeVisible();
  await tabTo(page, upload.target);
  await page.keyboard.type('tickets.Document · create');
  await expect(upload.target.locator('option:checked')).toHaveText('tickets.Document · create');
  await tabTo(page, upload.field('ticket'));
  await page.keyboard.type('1');
  await tabTo(page, upload.field('title'));
  await page.keyboard.type('Typed, not clicked');
  await tabTo(page, upload.fileInput('file'));
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Space');
  await (await chooser).setFiles({ name: 'keyboard.txt', mimeType: 'text/plain', buffer: Buffer.from('sent without a mouse\n') });
  await expect(upload.previewRow('file')).toContainText('keyboard.txt');
  await tabTo(page, upload.uploadButton);
  await page.keyboard.press('Enter');
  await expect(upload.outcome).toContainText(/^20[01] /);

  // No pointer was used at any step.
  expect(await page.evaluate(() => (globalThis as unknown as Counting).pointerEvents)).toBe(0);
});
