/**
 * Search inside a response (issue 17, defect 10): Ctrl/Cmd+F in the response pane opens one search
 * for the Table, JSON and Raw views; Enter and Shift+Enter step through the matches, and each view
 * brings the current one into sight (a row far down the virtualized table, a record the tree had
 * folded, a spot deep in the raw text). The raw body is coloured as JSON.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';

const ALL_TICKETS = { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', ordering: ['id'], limit: 300 }, title: null, status: null };

/** What the page's highlight registry holds under a name: how many ranges, and their text. */
function highlight(page: Page, name: string): Promise<string[]> {
  return page.evaluate((n) => {
    const registry = (globalThis as unknown as { CSS: { highlights: Map<string, Set<{ toString(): string }>> } }).CSS.highlights;
    return [...(registry.get(n) ?? [])].map((range) => range.toString());
  }, name);
}

test('Ctrl/Cmd+F searches the table, the tree and the raw body, and brings each match into view', async ({ app, page }) => {
  await app.runOn('Embedded server', ALL_TICKETS);
  await expect(app.tableRows.first()).toBeVisible();

  // Table: the pane's own Ctrl/Cmd+F (not the browser's), focus in the search box.
  await app.table.click();
  await page.keyboard.press('ControlOrMeta+F');
  await expect(app.responseSearchInput).toBeFocused();
  await page.keyboard.type('#250');
  await expect(app.searchCount).toHaveText('1 of 1');
  // Row 250 of 300 was far below the fold: it is scrolled to, and its cell selected.
  await expect(app.currentMatch).toContainText('#250');
  await expect(app.currentMatch).toBeInViewport();
  await expect(app.currentMatch).toHaveAttribute('aria-selected', 'true');

  // Stepping: "#1" is in the titles of tickets 1, 10-19, 100-199; Enter goes on, Shift+Enter back, around the ends.
  await app.responseSearchInput.fill('#1');
  const totalOf = async () => Number((await app.searchCount.innerText()).split(' of ')[1]);
  await expect.poll(totalOf).toBeGreaterThanOrEqual(111);
  const total = await totalOf();
  await expect(app.searchCount).toHaveText(`1 of ${total}`);
  const first = await app.currentMatch.innerText();
  await app.responseSearchInput.press('Enter');
  await expect(app.searchCount).toHaveText(`2 of ${total}`);
  await expect(app.currentMatch).not.toHaveText(first);
  await app.responseSearchInput.press('Shift+Enter');
  await app.responseSearchInput.press('Shift+Enter');
  await expect(app.searchCount).toHaveText(`${total} of ${total}`);

  // JSON: the same query counts again; record 250 was folded (only the first record is open).
  await app.responseSearchInput.fill('#250');
  await app.view('JSON').click();
  await expect(app.searchCount).toHaveText('1 of 1');
  await expect(app.currentMatch).toContainText('#250');
  await expect(app.currentMatch).toBeInViewport();
  await expect(app.jsonTree.getByRole('treeitem', { name: /^▾\s*249/ })).toHaveAttribute('aria-expanded', 'true');

  // Raw: coloured as JSON, the match marked and scrolled to in the 300 records' text.
  await app.view('Raw').click();
  await expect(app.searchCount).toHaveText('1 of 1');
  // The colours and the mark are set after the text is drawn: wait for them, as a person would see them come.
  await expect.poll(async () => (await highlight(page, 'raw-key')).length).toBeGreaterThan(300);
  await expect.poll(() => highlight(page, 'raw-string')).toContain('"open"');
  await expect.poll(() => highlight(page, 'search-current')).toEqual(['#250']);
  const inView = () => page.evaluate(() => {
    const g = globalThis as unknown as {
      CSS: { highlights: Map<string, Set<{ getBoundingClientRect(): { top: number; bottom: number } }>> };
      document: { querySelector(s: string): { getBoundingClientRect(): { top: number; bottom: number } } };
    };
    const [range] = [...g.CSS.highlights.get('search-current')!];
    const box = range!.getBoundingClientRect();
    const view = g.document.querySelector('[data-testid="raw-body"]').getBoundingClientRect();
    return box.top >= view.top && box.bottom <= view.bottom;
  });
  await expect.poll(inView).toBe(true);

  // Escape closes the bar and takes the marks away; the text stays the body as sent.
  await app.responseSearchInput.press('Escape');
  await expect(app.responseSearch).toBeHidden();
  await expect.poll(() => highlight(page, 'search-current')).toEqual([]);
  expect(JSON.parse(await app.rawBody.innerText()).__payload__).toHaveLength(300);
});

test('a query with no match says so, in any view', async ({ app, page }) => {
  await app.runOn('Embedded server', ALL_TICKETS);
  await app.view('JSON').click();
  await app.jsonTree.click();
  await page.keyboard.press('ControlOrMeta+F');
  await page.keyboard.type('no such words anywhere');
  await expect(app.searchCount).toHaveText('No match');
  await expect(app.currentMatch).toHaveCount(0);
  await app.view('SQL').click();
  await expect(app.searchCount).toHaveText('Search the Table, JSON or Raw view');
});
