/**
 * A 1024-pixel window (the narrowest the layout is made for): the answer's header keeps its actions
 * inside the window, and the popovers it opens stay inside it too.
 */
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';

const WIDTH = 1024;
test.use({ viewport: { width: WIDTH, height: 700 } });

async function expectInside(target: Locator, what: string): Promise<void> {
  const box = (await target.boundingBox())!;
  expect(box.x, `${what} starts inside the window`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what} ends inside the window`).toBeLessThanOrEqual(WIDTH);
}

test("the answer's header and its menus stay inside a 1024-px window", async ({ app, page }) => {
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 2 } });
  const save = page.getByRole('button', { name: 'Save…' });
  await expectInside(save, 'Save…');
  // Nothing makes the page scroll sideways.
  const [scroll, client] = await page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
    return [root.scrollWidth, root.clientWidth];
  });
  expect(scroll).toBeLessThanOrEqual(client);
  for (const [button, role, menu] of [
    [/^Copy as curl/, 'menu', 'Copy as curl'],
    [/^Copy as fetch/, 'menu', 'Copy as fetch'],
    ['Templates ▾', 'dialog', 'Templates'],
  ] as const) {
    await page.getByRole('button', { name: button }).click();
    const popover = page.getByRole(role, { name: menu });
    await expect(popover).toBeVisible();
    await expectInside(popover, `the ${menu} menu`);
    await page.keyboard.press('Escape');
    await expect(popover).toBeHidden();
  }
});
