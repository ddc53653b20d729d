/**
 * Reproduce locally: a tab on a remote (production, read-only) connection is copied into a local
 * server by the console's own server, opened on the new `local` connection, and the Diff view
 * finds both answers the same. The page never receives the copy's local admin credential: it
 * reaches the copy through the console's own server, with its launch cookie only.
 */
import { expect, REMOTE_ADMIN, test } from './fixtures/test.ts';
import { DiffPage } from './pages/diff-page.ts';
import { ReproducePage } from './pages/reproduce-page.ts';

const QUERY = {
  __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { priority__gte: 4 }, ordering: ['id'], limit: 25 },
  title: null,
  status: null,
  priority: null,
  created_at: null,
  assignee: { username: null, email: null },
  documents: { title: null },
};

test('reproduces a remote tab locally and the diff shows no change', async ({ app, page, remoteServer }) => {
  const reproduce = new ReproducePage(page);
  const diff = new DiffPage(page);
  // Every body the page received whole. (A response still arriving, or cut off, has no body to ask
  // Playwright for: asking would wait for it for the rest of the test.)
  const answers: Array<Promise<string>> = [];
  page.on('requestfinished', (request) => answers.push(request.response().then((response) => (response ? response.text() : '')).catch(() => '')));
  const toCopy: Array<{ url: string; authorization: string | undefined }> = [];
  page.on('request', (request) => {
    if (request.url().includes('/local/copies/')) toCopy.push({ url: request.url(), authorization: request.headers().authorization });
  });
  // Arrange: the query on the customer's (production) server.
  await app.addConnection('Customer', remoteServer.url, REMOTE_ADMIN);
  await expect(app.connectionKind('Customer')).toContainText('production');
  await app.runOn('Customer', QUERY);

  // Act: reproduce it locally, two levels deep.
  await reproduce.button.click();
  await reproduce.depth.selectOption('2');
  await reproduce.startButton.click();

  // Assert: a local connection, the tab opened on it, the same answer there.
  await expect(app.connection('Local copy of Customer')).toBeVisible({ timeout: 30_000 });
  await expect(reproduce.dialog).toBeHidden();
  await expect(app.connectionKind('Local copy of Customer')).toContainText('local');
  await expect(app.connectionSelect.locator('option:checked')).toHaveText('Local copy of Customer');
  await app.run();
  await expect(app.status).toHaveText(/^200/);

  await app.showView('Diff');
  await diff.left.selectOption({ label: 'Customer' });
  await diff.right.selectOption({ label: 'Local copy of Customer' });
  await diff.runButton.click();
  await expect(diff.summary).toHaveText('Both answers are the same (timing aside).');
  const filtered = await diff.extras.getByRole('row', { name: /filtered/ }).getByRole('cell').allInnerTexts();
  expect(Number(filtered[0])).toBeGreaterThan(25);
  expect(filtered[0]).toBe(filtered[1]);

  // The copy was asked on the console's own origin, and nothing the page sent or got holds a credential of it.
  expect(toCopy.length).toBeGreaterThan(0);
  for (const request of toCopy) {
    expect(new URL(request.url).origin).toBe(new URL(page.url()).origin);
    expect(request.authorization).toBeUndefined();
  }
  for (const text of await Promise.all(answers)) expect(text).not.toMatch(/localAdminToken/);
});

test('says why a tab cannot be reproduced, and offers it only on remote connections', async ({ app, page, remoteServer }) => {
  const reproduce = new ReproducePage(page);
  await expect(reproduce.button).toBeHidden();
  await app.addConnection('Customer', remoteServer.url, REMOTE_ADMIN);
  await app.showView('Query');
  await app.connectionSelect.selectOption({ label: 'Customer' });
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve' } });
  await reproduce.button.click();
  await reproduce.redact.fill('no_such_field_anywhere');
  await reproduce.startButton.click();
  await expect(reproduce.error).toContainText('no_such_field_anywhere');
  await expect(app.connection('Local copy of Customer')).toHaveCount(0);
});
