/**
 * Diff never writes (issue 11, defect 1): a delete in the editor, Diff on two connections, and both
 * servers still hold the record afterwards (checked through the API), whatever the connections'
 * kinds. And "same connection, two users": one read on the embedded server as two identities.
 */
import { expect, REMOTE_ADMIN, test } from './fixtures/test.ts';
import { jqlApi } from './fixtures/jql-api.ts';
import { DiffPage } from './pages/diff-page.ts';

test('Diff refuses a delete, and both servers keep the record', async ({ app, page, baseURL, remoteServer }) => {
  const diff = new DiffPage(page);
  const embedded = jqlApi(baseURL!);
  const remote = jqlApi(remoteServer.url);
  expect(await embedded.ticket(7)).not.toBeNull();
  expect(await remote.ticket(7)).not.toBeNull();
  const posts: string[] = [];
  // A development connection: not read-only, so only Diff's own rule can stop the write.
  await app.addConnection('Dev box', remoteServer.url, REMOTE_ADMIN, { kind: 'development' });
  page.on('request', (r) => void (r.method() === 'POST' && /\/jql(\?|$)/.test(r.url()) && posts.push(r.postData() ?? '')));
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'delete', uniqueObject: { id: 7 } } });

  await app.showView('Diff');
  await diff.left.selectOption({ label: 'Embedded server' });
  await diff.right.selectOption({ label: 'Dev box' });

  await expect(diff.refusal).toHaveText('Diff never writes: this document deletes tickets.Ticket records, so it is not sent to either side.');
  await expect(diff.runButton).toBeDisabled();
  expect(posts.filter((p) => p.includes('"delete"'))).toEqual([]);
  expect(await embedded.ticket(7)).not.toBeNull();
  expect(await remote.ticket(7)).not.toBeNull();

  // The same connection twice, or a multi-query hiding the delete, is refused the same way.
  await diff.right.selectOption({ label: 'Embedded server' });
  await expect(diff.refusal).toBeVisible();
  await app.showView('Query');
  await app.setQuery({ list: { __meta__: { namespace: 'tickets.Ticket', intent: 'count' } }, purge: { __meta__: { namespace: 'tickets.Ticket', intent: 'delete', uniqueObject: { id: 7 } } } });
  await app.showView('Diff');
  await expect(diff.refusal).toContainText('"purge" deletes tickets.Ticket records');
  await expect(diff.runButton).toBeDisabled();
  expect(await embedded.ticket(7)).not.toBeNull();
});

test('same connection, two users: one read as a demo user and as anyone', async ({ app, page }) => {
  const diff = new DiffPage(page);
  await app.setQuery({ __meta__: { namespace: 'objects.Object', intent: 'retrieve', ordering: ['id'], limit: 5 }, name: null });
  await app.showView('Diff');
  await diff.mode('Same connection, two users').check();
  await expect(diff.identities).toContainText('Embedded server');

  // Demo users sign in with one click, for this diff only: the connection stays the local admin's.
  await diff.identities.getByRole('button', { name: 'viewer' }).click();
  await expect(diff.identities.getByRole('button', { name: 'viewer' })).toBeDisabled();
  await diff.identities.getByRole('button', { name: 'agent' }).click();
  await expect(diff.identities.getByRole('button', { name: 'agent' })).toBeDisabled();
  await expect(app.connectionUser('Embedded server')).not.toHaveText(/viewer|agent/);

  // Two demo users read the same.
  await diff.leftIdentity.selectOption({ label: 'Embedded server as viewer' });
  await diff.rightIdentity.selectOption({ label: 'Embedded server as agent' });
  await diff.runButton.click();
  await expect(diff.summary).toHaveText('Both answers are the same (timing aside).');

  // A demo user and anyone: anyone may not read objects.
  await diff.rightIdentity.selectOption({ label: 'Embedded server as anyone (no credentials)' });
  await diff.runButton.click();
  await expect(diff.summary).toHaveText(/status 200 vs 401$/);
  await expect(diff.root.getByText('unauthenticated').first()).toBeVisible();
});
