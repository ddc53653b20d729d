/** What a person takes away from a response: copied cells and rows, the request as curl, the body as a file. */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const clipboard = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText());

test('copies a cell, a row and the request as curl', async ({ app, page }) => {
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 2, ordering: ['id'] }, title: null });
  await app.run();

  await app.tableRows.first().getByRole('gridcell').nth(1).click();
  await page.getByRole('button', { name: 'Copy cell' }).click();
  await expect.poll(() => clipboard(page)).toMatch(/#1$/);

  await page.getByRole('button', { name: 'Copy row' }).click();
  await expect.poll(async () => JSON.parse(await clipboard(page)).id).toBe(1);

  await page.getByRole('button', { name: /^Copy as curl/ }).click();
  await page.getByRole('menuitem', { name: /^with \$JQL_TOKEN/ }).click();
  await expect.poll(() => clipboard(page)).toMatch(/^# This request runs as a signed-in user/);
  const curl = await clipboard(page);
  expect(curl).toMatch(/^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/jql'/m);
  // The local admin's token is not in the snippet, only a variable for it (e2e/snippets.spec.ts runs it).
  expect(curl).toContain('Bearer ${JQL_TOKEN:?');
  expect(curl).toMatch(/"namespace": ?"tickets.Ticket"/);
});

test('saves the raw body to a file', async ({ app, page }) => {
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'count' } });
  await app.run();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save…' }).click();
  const file = await (await download).path();
  expect(JSON.parse(readFileSync(file, 'utf8')).__payload__.count).toBeGreaterThan(0);
  expect((await download).suggestedFilename()).toBe('Ticket-count.json');
});

test('shows a render only:data body as the payload', async ({ app, page }) => {
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 4, render: 'only:data' }, title: null });
  await app.run();
  await expect(app.status).toHaveText(/^200/);
  await expect(page.getByText('only:data', { exact: true })).toBeVisible();
  await expect(app.tableRows).toHaveCount(4);
});
