/**
 * Connection kinds and read-only mode: a remote connection is production and read-only until the
 * user says otherwise, its kind shows on the connection, on the tab and beside Run, and a write is
 * refused in one sentence until "Run once anyway" with the connection's name typed. Whether the
 * server still holds the record is checked through the API, behind the console's back.
 */
import { expect, REMOTE_ADMIN, test } from './fixtures/test.ts';
import { jqlApi } from './fixtures/jql-api.ts';
import { UploadPage } from './pages/upload-page.ts';

const deleteTicket = (id: number) => ({ __meta__: { namespace: 'tickets.Ticket', intent: 'delete', uniqueObject: { id } } });

test('a production connection refuses a delete until its name is typed', async ({ app, page, remoteServer }) => {
  const api = jqlApi(remoteServer.url);
  expect(await api.ticket(11)).not.toBeNull();

  // Arrange: a remote connection added without choosing a kind.
  await app.addConnection('Prod EU', remoteServer.url, REMOTE_ADMIN);
  await app.connectionSelect.selectOption({ label: 'Prod EU' });
  await expect(app.connectionKind('Prod EU')).toHaveText('productionread-only');
  await expect(app.runTarget).toHaveText('productionread-only');
  await expect(app.editorTabs.first()).toHaveAttribute('data-deployment', 'production');
  await expect(app.editorTabs.first()).toContainText('production');
  await expect(app.connectionKind('Embedded server')).toHaveText('local');

  // Act 1: run a delete.
  await app.setQuery(deleteTicket(11));
  await app.editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+Enter');

  // Assert 1: refused in one sentence, nothing sent.
  await expect(app.refusal).toContainText('Not sent: this document deletes tickets.Ticket records, and “Prod EU” (production) is in read-only mode.');
  expect(await api.ticket(11)).not.toBeNull();

  // Act 2: run once anyway, which asks for the name.
  await app.runAnywayButton.click();
  const confirm = app.runAnywayDialog.getByRole('button', { name: 'Run once anyway' });
  await expect(confirm).toBeDisabled();
  await app.runAnywayDialog.getByLabel('Connection name').fill('Prod E');
  await expect(confirm).toBeDisabled();
  await app.runAnywayDialog.getByLabel('Connection name').fill('Prod EU');
  await confirm.click();

  // Assert 2: sent this once, and gone on the server.
  await expect(app.status).toHaveText(/^200/);
  expect(await api.ticket(11)).toBeNull();

  // A read is never refused, and the next write is refused again.
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'count' } });
  await app.run();
  await expect(app.status).toHaveText(/^200/);
  await app.setQuery(deleteTicket(12));
  await app.editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(app.refusal).toBeVisible();
  expect(await api.ticket(12)).not.toBeNull();
});

test('refuses a multi-query that holds a write, and read-only mode is switched per connection', async ({ app, page, remoteServer }) => {
  const api = jqlApi(remoteServer.url);
  await app.addConnection('Live', remoteServer.url, REMOTE_ADMIN);
  await app.connectionSelect.selectOption({ label: 'Live' });
  await app.setQuery({ first: { __meta__: { namespace: 'tickets.Ticket', intent: 'count' } }, cleanup: deleteTicket(13) });
  await app.editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(app.refusal).toContainText('in this multi-query "cleanup" deletes tickets.Ticket records');
  expect(await api.ticket(13)).not.toBeNull();

  // Switch read-only off for this connection: the same document is sent at once.
  await app.connection('Live').getByRole('button', { name: 'Edit' }).click();
  await app.connectionDialog.getByLabel(/^Read-only/).uncheck();
  await app.connectionDialog.getByRole('button', { name: 'Save' }).click();
  await expect(app.runTarget).toHaveText('production');
  await app.run();
  await expect(app.status).toHaveText(/^200/);
  expect(await api.ticket(13)).toBeNull();
});

test('an upload to a read-only connection asks first, and sends nothing when cancelled', async ({ app, page, remoteServer }) => {
  const upload = new UploadPage(page);
  const puts: string[] = [];
  page.on('request', (r) => void (r.method() === 'PUT' && puts.push(r.url())));
  await app.addConnection('Prod uploads', remoteServer.url, REMOTE_ADMIN);
  await app.showView('Upload');
  await page.getByLabel('Upload connection').selectOption({ label: 'Prod uploads' });
  await upload.target.selectOption({ label: 'tickets.Document · create' });
  await upload.field('ticket').fill('1');
  await upload.field('title').fill('Should not be stored');
  await upload.fileInput('file').setInputFiles({ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await upload.uploadButton.click();

  await expect(app.runAnywayDialog).toContainText('Not sent: this upload sends files to be stored (a multipart PUT), and “Prod uploads” (production) is in read-only mode.');
  await app.runAnywayDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(app.runAnywayDialog).toHaveCount(0);
  await expect(upload.outcome).toHaveCount(0);
  expect(puts).toEqual([]);
});

test('a controller intent the server declares read-only runs on a read-only connection; one it does not is refused', async ({ app, page, remoteServer }) => {
  const api = jqlApi(remoteServer.url);
  const folderCall = (intent: string, args: Record<string, unknown>) => ({ __meta__: { namespace: 'documents.Folder', intent, schema: 'controller' }, ...args });
  await app.addConnection('Prod docs', remoteServer.url, REMOTE_ADMIN);
  await app.connectionSelect.selectOption({ label: 'Prod docs' });
  await expect(app.runTarget).toHaveText('productionread-only');

  // documents.Folder declares listDocuments read-only in its describe: sent at once.
  await app.setQuery(folderCall('listDocuments', { folder: 1 }));
  await app.run();
  await expect(app.status).toHaveText(/^200/);
  await expect(app.refusal).toHaveCount(0);

  // addDocument is not declared read-only: refused, and nothing reaches the server.
  const token = await api.login(REMOTE_ADMIN.username, REMOTE_ADMIN.password);
  const stored = async () => (await api.post({ __meta__: { namespace: 'documents.Document', intent: 'count', filter: { name: 'Must not be stored' } } }, token)).body.__payload__.count;
  await app.setQuery(folderCall('addDocument', { folder: 1, name: 'Must not be stored' }));
  await app.editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(app.refusal).toContainText('Not sent: this document calls documents.Folder.addDocument, which the server does not declare read-only');
  expect(await stored()).toBe(0);
});
