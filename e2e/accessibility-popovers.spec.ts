/**
 * axe-core (WCAG 2.1 A and AA) with each popover of the Query view open: e2e/accessibility.spec.ts
 * checks the views and dialogs, where none of them is open. With the Templates popover open as an
 * ARIA menu axe found 73 serious violations (menu items inside list items, a text field in a menu);
 * it is a labelled dialog of button groups now.
 */
import type { Locator } from '@playwright/test';
import { seriousViolations } from './fixtures/axe.ts';
import { expect, test } from './fixtures/test.ts';
import type { ConsolePage } from './pages/console-page.ts';

const POPOVERS: { name: string; open: (app: ConsolePage) => Promise<void>; shown: (app: ConsolePage) => Locator }[] = [
  {
    name: 'the Templates popover',
    open: (app) => app.page.getByRole('button', { name: 'Templates ▾' }).click(),
    shown: (app) => app.page.getByRole('dialog', { name: 'Templates' }),
  },
  {
    name: 'the "Copy as curl" menu',
    open: (app) => app.page.getByRole('button', { name: /^Copy as curl/ }).click(),
    shown: (app) => app.page.getByRole('menu', { name: 'Copy as curl' }),
  },
  {
    name: 'the "Copy as fetch" menu',
    open: (app) => app.page.getByRole('button', { name: /^Copy as fetch/ }).click(),
    shown: (app) => app.page.getByRole('menu', { name: 'Copy as fetch' }),
  },
  {
    name: 'the record menu of a cell',
    open: async (app) => {
      await app.tableRows.nth(1).getByRole('gridcell').nth(1).focus();
      await app.page.keyboard.press('Shift+F10');
    },
    shown: (app) => app.page.getByRole('menu', { name: /^Record / }),
  },
];

test('every popover of the Query view, open over an answer, has no serious or critical WCAG 2.1 AA violation', async ({ app, page }) => {
  test.setTimeout(120_000);
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 2 } });
  for (const popover of POPOVERS) {
    await popover.open(app);
    await expect(popover.shown(app), `${popover.name} opens`).toBeVisible();
    expect.soft(await seriousViolations(page), `with ${popover.name} open`).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(popover.shown(app)).toBeHidden();
  }
});

test('a template is found by its namespace group and inserted from the keyboard', async ({ app, page }) => {
  await expect(app.schemaState).toHaveText('schema: demo');
  await page.getByRole('button', { name: 'Templates ▾' }).click();
  const templates = page.getByRole('dialog', { name: 'Templates' });
  // The filter takes the focus when it opens; Tab reaches the first group's buttons.
  await expect(templates.getByRole('textbox', { name: 'Filter namespaces' })).toBeFocused();
  await page.keyboard.type('tickets.Ticket');
  const group = templates.getByRole('group', { name: 'tickets.Ticket model' });
  await expect(group.getByRole('button')).not.toHaveCount(0);
  await page.keyboard.press('Tab');
  await expect(group.getByRole('button').first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(templates).toBeHidden();
  await expect.poll(() => app.editorContent()).toContain('"namespace": "tickets.Ticket"');
});
