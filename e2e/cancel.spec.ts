/**
 * Cancel: a slow request (a large retrieve, read over a throttled network so it takes long enough
 * to be cancelled) stops with the Cancel button beside Run, and a multi-query with Escape; the tab
 * says Cancelled and keeps its document, and the next run goes through.
 */
import type { CDPSession, Page } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';

const ALL_TICKETS = { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 1000, ordering: ['id'] } };

/** What the page reads, it reads at `bytesPerSecond` (the server itself answers at once). */
async function throttle(page: Page, bytesPerSecond: number): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: bytesPerSecond, uploadThroughput: -1 });
  return cdp;
}

const unthrottle = (cdp: CDPSession) => cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

test('Cancel stops a large retrieve: the tab says Cancelled and keeps its document', async ({ app, page }) => {
  await app.setQuery(ALL_TICKETS);
  // The editor shows the document a moment after it is set: take it once it is there.
  await expect.poll(() => app.editorContent()).toContain('"limit": 1000');
  const before = await app.editorContent();
  const cdp = await throttle(page, 8 * 1024);

  await app.runButton.click();
  await expect(page.getByTestId('response-running')).toBeVisible();
  await app.cancelButton.click();

  await expect(app.cancelled).toContainText('Cancelled after');
  await expect(app.editorTabs.first()).toContainText('Cancelled');
  await expect(app.cancelButton).toHaveCount(0);
  expect(await app.editorContent()).toBe(before);

  await unthrottle(cdp);
  await app.run();
  await expect(app.status).toHaveText(/^200/);
  await expect(app.editorTabs.first()).not.toContainText('Cancelled');
});

test('Escape cancels a running multi-query', async ({ app, page }) => {
  await app.setQuery({ open: { ...ALL_TICKETS, __meta__: { ...ALL_TICKETS.__meta__, filter: { status: 'open' } } }, everything: ALL_TICKETS });
  const cdp = await throttle(page, 8 * 1024);
  await app.editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByTestId('response-running')).toBeVisible();

  await page.keyboard.press('Escape');

  await expect(app.cancelled).toBeVisible();
  await expect(app.editorTabs.first()).toContainText('Cancelled');
  await expect.poll(() => app.editorContent()).toContain('"everything"');
  await unthrottle(cdp);
});
