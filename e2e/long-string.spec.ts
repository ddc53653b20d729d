/**
 * A Run's answer with a very long string (issue 31, huge-string): the string never reaches the window
 * whole, yet every view tells the truth about it. The table cell and the tree show its start, show
 * all draws one piece at a time and pages to the rest, search finds a word far past what is drawn,
 * and copying the cell puts the exact string on the clipboard (the row, whose JSON could not, is refused).
 */
import type { Page } from '@playwright/test';
import { seriousViolations } from './fixtures/axe.ts';
import { expect, test } from './fixtures/test.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const clipboard = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());

// 3,000,000 characters: a word at 500,000 (past the drawn head, inside the searched part), characters
// of two UTF-16 units and a zero-width space, so copy must keep every kind.
const LONG = `${'a'.repeat(500_000)}WORDINSIDE${'b😀\u200b'.repeat(400_000)}${'c'.repeat(899_990)}`;

test('a very long string is shown a piece at a time, found by search and copied exactly', async ({ app, page }) => {
  test.setTimeout(90_000);
  const body = JSON.stringify({ __payload__: [{ id: 1, body: LONG }], __errors__: null, __intent__: 'retrieve' });
  await page.route(/\/jql(\?.*)?$/, (route) => (route.request().method() === 'POST' ? route.fulfill({ status: 200, contentType: 'application/json', body }) : route.continue()));
  await app.run(30_000);

  // The table's cell holds its start only.
  const cell = app.tableRows.first().getByRole('gridcell').nth(1);
  await expect(cell).toContainText('aaaa');
  expect((await cell.innerText()).length).toBeLessThan(400);

  // Copying the cell puts the exact string on the clipboard.
  await cell.click();
  await page.getByRole('button', { name: 'Copy cell' }).click();
  await expect.poll(async () => (await clipboard(page)).length, { timeout: 20_000 }).toBe(LONG.length);
  expect((await clipboard(page)) === LONG).toBe(true);
  // The row's JSON could hold only a part of it: not copied, and said so.
  await page.getByRole('button', { name: 'Copy row' }).click();
  await expect(page.getByText(/^Not copied: it holds a string too long to copy/)).toBeVisible();
  expect((await clipboard(page)) === LONG).toBe(true);

  // Search finds the word 500,000 characters in, and says what it searched.
  await page.keyboard.press('ControlOrMeta+F');
  await app.responseSearchInput.fill('wordinside');
  await expect(app.searchCount).toHaveText('1 of 1');
  await expect(page.getByTestId('search-note')).toContainText('first 1,000,000 characters');
  // The cell, the refusal and the search note as a screen reader meets them.
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');

  // The tree: show all draws 100,000 characters of 3,000,000 and pages on.
  await page.getByRole('tablist', { name: 'Response views' }).getByRole('tab', { name: 'JSON' }).click();
  await app.jsonTree.getByRole('button', { name: /show all/ }).click();
  const panel = page.getByTestId('long-text-panel');
  await expect(panel.getByTestId('cut-notice')).toContainText('Showing characters 1–100,000 of 3,000,000 (piece 1 of 30)');
  await expect.poll(async () => (await panel.locator('textarea').inputValue()).length).toBe(100_000);
  expect(await seriousViolations(page)).toEqual([]);
  // Paged from the keyboard: Enter on the focused button, five times.
  await panel.getByRole('button', { name: 'next piece' }).focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('Enter');
  // An emoji across the edge goes whole to the next piece.
  await expect(panel.getByTestId('cut-notice')).toContainText('Showing characters 500,001–599,999');
  expect(await panel.locator('textarea').inputValue()).toBe(LONG.slice(500_000, 599_999));
});
