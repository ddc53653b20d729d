/**
 * Keyboard users keep their place: a popover or dialog closed with Escape (or by a choice made in
 * it) gives the focus back to the button that opened it. Before, it went to the page's body, and the
 * next Tab started again from the top of the console (WCAG 2.4.3, focus order).
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';
import type { ConsolePage } from './pages/console-page.ts';

interface Opener {
  name: string;
  button: (app: ConsolePage) => Locator;
  /** What shows once it is open. */
  shown: (app: ConsolePage) => Locator;
}

const OPENERS: Opener[] = [
  { name: 'the Templates menu', button: (app) => app.page.getByRole('button', { name: 'Templates ▾' }), shown: (app) => app.page.getByRole('dialog', { name: 'Templates' }) },
  { name: 'the "Copy as curl" menu', button: (app) => app.page.getByRole('button', { name: /^Copy as curl/ }), shown: (app) => app.page.getByRole('menu', { name: 'Copy as curl' }) },
  { name: 'the Add connection dialog', button: (app) => app.addConnectionButton, shown: (app) => app.connectionDialog },
  { name: 'the Edit connection dialog', button: (app) => app.connection('Embedded server').getByRole('button', { name: 'Edit' }), shown: (app) => app.connectionDialog },
  { name: 'the Sign in dialog', button: (app) => app.connection('Embedded server').getByRole('button', { name: 'Sign in as…' }), shown: (app) => app.signInDialog },
];

/** Focuses `target` the way Tab would land on it (no pointer event). */
async function focusWithoutPointer(page: Page, target: Locator): Promise<void> {
  await target.focus();
  await expect(target).toBeFocused();
  expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: unknown; body: unknown } }).document.activeElement !== null)).toBe(true);
}

test('Escape gives the focus back to what opened a popover or a dialog', async ({ app, page }) => {
  test.setTimeout(90_000);
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 2 } });
  for (const opener of OPENERS) {
    const button = opener.button(app);
    await focusWithoutPointer(page, button);
    await page.keyboard.press('Enter');
    await expect(opener.shown(app), `${opener.name} opens`).toBeVisible();
    // The focus is inside it now (a filter, a field, or the next Tab's menu item).
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await expect(opener.shown(app), `${opener.name} closes`).toBeHidden();
    await expect(button, `the focus is back on the button that opened ${opener.name}`).toBeFocused();
  }
});

test('a choice made in the "Copy as curl" menu leaves the focus on its button', async ({ app, page }) => {
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 2 } });
  const button = page.getByRole('button', { name: /^Copy as curl/ });
  await focusWithoutPointer(page, button);
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Copy as curl' });
  await expect(menu).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();
});

// The table gives the focus back itself (PayloadTable's refocus): this held before, and stays.
test('Escape on the record menu gives the focus back to the cell it was opened on', async ({ app, page }) => {
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 2 } });
  const cell = app.tableRows.nth(1).getByRole('gridcell').nth(1);
  await focusWithoutPointer(page, cell);
  await page.keyboard.press('Shift+F10');
  const menu = page.getByRole('menu', { name: /^Record / });
  await expect(menu.getByRole('menuitem')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(cell).toBeFocused();
});

test("the arrow keys in the answer's views move the focus with the chosen view", async ({ app, page }) => {
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 2 } });
  const table = app.view('Table');
  await focusWithoutPointer(page, table);
  await page.keyboard.press('ArrowRight');
  // Errors is disabled (no errors): JSON, then SQL.
  await expect(app.view('JSON')).toHaveAttribute('aria-selected', 'true');
  await expect(app.view('JSON')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(app.view('SQL')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(table).toBeFocused();
  await expect(table).toHaveAttribute('aria-selected', 'true');
});
