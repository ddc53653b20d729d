/**
 * Diff: one document on two connections, the embedded server and a second server standing in for a
 * deployment, after the deployment's data moved on (a ticket renamed, another deleted): records
 * matched by id as changed (field by field) and removed, with the extras and timing side by side.
 */
import { expect, REMOTE_ADMIN, test } from './fixtures/test.ts';
import { DiffPage } from './pages/diff-page.ts';

const FIRST_FIVE = { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { id__lte: 5 }, ordering: ['id'] }, title: null, status: null, priority: null };

test('compares the same query on two connections', async ({ app, page, remoteServer }) => {
  const diff = new DiffPage(page);
  // Arrange: the deployment's ticket 3 renamed and ticket 5 deleted; the query in the editor.
  await app.addConnection('Deployment', remoteServer.url, REMOTE_ADMIN, { kind: 'staging' });
  await app.runOn('Deployment', { __meta__: { namespace: 'tickets.Ticket', intent: 'update', uniqueObject: { id: 3 } }, title: 'Renamed on the deployment' });
  await app.runOn('Deployment', { __meta__: { namespace: 'tickets.Ticket', intent: 'delete', uniqueObject: { id: 5 } } }, /^(200|404)/);
  await app.setQuery(FIRST_FIVE);

  // Act
  await app.showView('Diff');
  await diff.left.selectOption({ label: 'Embedded server' });
  await diff.right.selectOption({ label: 'Deployment' });
  await diff.runButton.click();

  // Assert
  await expect(diff.summary).toHaveText(/^0 added · 1 removed · 1 changed · 3 unchanged/);
  await expect(diff.changeRows('changed')).toHaveCount(1);
  await expect(diff.changeRows('changed')).toContainText('title');
  await expect(diff.changeRows('changed')).toContainText('"Renamed on the deployment"');
  await expect(diff.changeRows('removed')).toContainText('5');
  const filtered = await diff.extras.getByRole('row', { name: /filtered/ }).getByRole('cell').allInnerTexts();
  expect(filtered).toEqual(['5', '4']);
  await expect(diff.timing.getByRole('row', { name: /HTTP status/ })).toContainText('200');
});
