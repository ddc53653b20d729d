/** Popovers stay inside the window: the "curl ▾" and "fetch ▾" menus at the right of a 1280-px window. */
import { expect, test } from './fixtures/test.ts';

test.use({ viewport: { width: 1280, height: 800 } });

test('the curl and fetch menus open inside a 1280-px window, their hints whole', async ({ app, page }) => {
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 2 } });
  for (const kind of ['curl', 'fetch']) {
    await page.getByRole('button', { name: new RegExp(`^Copy as ${kind}`) }).click();
    const menu = page.getByRole('menu', { name: `Copy as ${kind}` });
    await expect(menu).toBeVisible();
    const box = (await menu.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    // Each hint ends inside the window too (not cut off by the menu's own overflow).
    for (const hint of await menu.locator('small').all()) {
      const hintBox = (await hint.boundingBox())!;
      expect(hintBox.x + hintBox.width).toBeLessThanOrEqual(1280);
    }
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
  }
});
