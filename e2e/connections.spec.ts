/** Connections: the embedded one signed in without a prompt, a remote one added and signed in to. */
import { expect, REMOTE_ADMIN, test } from './fixtures/test.ts';

test('the embedded connection is signed in as the local admin', async ({ app }) => {
  await expect(app.connection('Embedded server').getByTestId('connection-status')).toContainText(/v\d+\.\d+\.\d+/);
  await expect(app.connectionUser('Embedded server')).toBeVisible();
});

test('signs in to the embedded server as a demo user to see what that user may do', async ({ app }) => {
  await app.connection('Embedded server').getByRole('button', { name: 'Sign in as…' }).click();
  await app.signInDialog.getByLabel('Username').fill('viewer');
  await app.signInDialog.getByLabel('Password').fill('viewer-demo');
  await app.signInDialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(app.connectionUser('Embedded server')).toHaveText('viewer');

  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'delete', uniqueObject: { id: 1 } } });
  await app.run();
  await expect(app.status).toHaveText(/^403/);
  await expect(app.errorsList).toContainText('forbidden');
});

test('signs in to a second server as a remote connection and queries it', async ({ app, remoteServer, page }) => {
  // Arrange: add the connection.
  await app.addConnectionButton.click();
  await app.connectionDialog.getByLabel('Name').fill('Second server');
  await app.connectionDialog.getByLabel('Server URL').fill(remoteServer.url);
  await app.connectionDialog.getByRole('button', { name: 'Add connection' }).click();

  // Act: sign in (a wrong password first).
  await app.signInDialog.getByLabel('Username').fill(REMOTE_ADMIN.username);
  await app.signInDialog.getByLabel('Password').fill('wrong');
  await app.signInDialog.getByRole('button', { name: 'Sign in' }).click();
  await expect(app.signInDialog.getByRole('alert')).toBeVisible();
  await app.signInDialog.getByLabel('Password').fill(REMOTE_ADMIN.password);
  await app.signInDialog.getByRole('button', { name: 'Sign in' }).click();

  // Assert: both connections side by side, the remote one signed in and usable.
  await expect(app.signInDialog).toBeHidden();
  await expect(app.connectionUser('Second server')).toHaveText(REMOTE_ADMIN.username);
  await expect(app.connection('Embedded server')).toBeVisible();

  await app.connectionButton('Second server').click();
  await expect(app.connectionSelect.locator('option:checked')).toHaveText('Second server');
  await app.setQuery({ __meta__: { namespace: 'system.User', intent: 'retrieve', filter: { username: REMOTE_ADMIN.username } }, username: null, roles: null });
  await app.run();
  await expect(app.status).toHaveText(/^200/);
  await expect(app.tableRows).toHaveCount(1);
  await expect(app.tableRows.first()).toContainText(REMOTE_ADMIN.username);

  // Signing out keeps the connection.
  await app.connection('Second server').getByRole('button', { name: 'Sign out' }).click();
  await expect(app.connection('Second server')).toContainText('not signed in');
  await expect(page.getByText('not signed in')).toHaveCount(1);
});

test('edits and deletes a remote connection', async ({ app, page }) => {
  await app.addConnectionButton.click();
  await app.connectionDialog.getByLabel('Server URL').fill('http://127.0.0.1:9/');
  await app.connectionDialog.getByRole('button', { name: 'Add connection' }).click();
  await app.signInDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(app.connection('127.0.0.1:9')).toContainText('unreachable');

  await app.connection('127.0.0.1:9').getByRole('button', { name: 'Edit' }).click();
  await app.connectionDialog.getByLabel('Name').fill('Nowhere');
  await app.connectionDialog.getByRole('button', { name: 'Save' }).click();
  await expect(app.connection('Nowhere')).toBeVisible();

  page.once('dialog', (d) => void d.accept());
  await app.connection('Nowhere').getByRole('button', { name: 'Delete' }).click();
  await expect(app.connection('Nowhere')).toHaveCount(0);
});

test('after "Sign in as…" another user, "Back to local admin" returns to the local admin without a reload', async ({ app, page }) => {
  await expect(app.connectionUser('Embedded server')).toHaveText('local-admin');
  await app.signInEmbeddedAs({ username: 'viewer', password: 'viewer-demo' });
  // A delete of a ticket that does not exist: the viewer may not delete at all, the admin is told it is not there.
  const missing = { __meta__: { namespace: 'tickets.Ticket', intent: 'delete', uniqueObject: { id: 987654 } } };
  await app.runOn('Embedded server', missing, /^403/);

  await app.connection('Embedded server').getByRole('button', { name: 'Back to local admin' }).click();

  await expect(app.connectionUser('Embedded server')).toHaveText('local-admin');
  await expect(app.connection('Embedded server').getByRole('button', { name: 'Back to local admin' })).toHaveCount(0);
  await app.run();
  await expect(app.status).toHaveText(/^404/);
  await expect(page.getByText('Signed in as the local admin again')).toBeVisible();
});
