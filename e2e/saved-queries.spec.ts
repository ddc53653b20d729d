/** Saved queries: a query with {{variables}} filled from the connection's environment, and a collections file round trip. */
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures/test.ts';
import { SavedPage } from './pages/saved-page.ts';

const WITH_VARIABLES = `{
  "__meta__": {
    "namespace": "tickets.Ticket",
    "intent": "retrieve",
    "filter": { "status": "{{status}}", "priority__gte": {{minPriority}} },
    "ordering": ["id"],
    "limit": 5
  },
  "title": null,
  "status": null,
  "priority": null
}`;

test('runs a saved query with its variables filled from the connection environment', async ({ app, page }) => {
  const saved = new SavedPage(page);
  // Arrange: the document in the editor, saved into a new collection.
  await app.setQuery(WITH_VARIABLES);
  await app.showView('Saved');
  await saved.newCollectionName.fill('Triage');
  await saved.createButton.click();
  await saved.saveName.fill('Open by priority');
  await saved.saveButton.click();
  await expect(saved.notice).toHaveText('Saved "Open by priority".');
  const query = saved.query('Triage', 'Open by priority');
  await expect(query).toContainText('{{status}}');

  // Act 1: run before the variables exist: each undefined one is named with its place.
  await query.getByRole('button', { name: 'Run' }).click();
  await expect(query.getByRole('alert').first()).toContainText('status');
  await expect(query.getByRole('alert')).toHaveCount(2);

  // Act 2: define them for the embedded connection and run again.
  await saved.environment.getByRole('button', { name: 'Add a variable' }).click();
  await saved.variableName(1).fill('status');
  await saved.variableValue(1).fill('pending');
  await saved.environment.getByRole('button', { name: 'Add a variable' }).click();
  await saved.variableName(2).fill('minPriority');
  await saved.variableValue(2).fill('4');
  await saved.environment.getByRole('button', { name: 'Save variables' }).click();
  await query.getByRole('button', { name: 'Run' }).click();

  // Assert: a new tab runs the filled-in document; the rows obey it.
  await expect(app.viewPanel('Query')).toBeVisible();
  await expect(app.status).toHaveText(/^200/);
  await expect.poll(() => app.editorContent()).toContain('"status": "pending", "priority__gte": 4');
  await expect(app.tableRows).toHaveCount(5);
  await expect(app.tableRows.locator('[role=gridcell]:nth-child(4)')).toHaveText(Array(5).fill('pending'));
  const priorities = await app.tableRows.locator('[role=gridcell]:nth-child(5)').allInnerTexts();
  expect(priorities.map(Number).every((p) => p >= 4)).toBe(true);
});

test('exports collections to a file and imports them back', async ({ app, page }, testInfo) => {
  const saved = new SavedPage(page);
  // Arrange: a collection with two queries.
  await app.showView('Saved');
  await saved.newCollectionName.fill('Round trip');
  await saved.createButton.click();
  for (const [name, intent] of [
    ['All tickets', 'retrieve'],
    ['How many', 'count'],
  ]) {
    await app.showView('Query');
    await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent }, comment: '{{note}}' });
    await app.showView('Saved');
    await saved.saveName.fill(name!);
    await saved.saveButton.click();
    await expect(saved.notice).toHaveText(`Saved "${name}".`);
  }

  // Act: export, delete, import the file.
  const downloading = page.waitForEvent('download');
  await saved.collection('Round trip').getByRole('button', { name: 'Export' }).click();
  const download = await downloading;
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  const exported = JSON.parse(await readFile(file, 'utf8'));
  expect(exported).toMatchObject({ format: 'jql-console/collections', collections: [{ name: 'Round trip', queries: [{ name: 'All tickets' }, { name: 'How many' }] }] });

  page.once('dialog', (d) => void d.accept());
  await saved.collection('Round trip').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(saved.collection('Round trip')).toHaveCount(0);
  await saved.importInput.setInputFiles(file);

  // Assert: the same collection, queries and documents are back.
  await expect(saved.notice).toContainText('Imported "Round trip" (2 queries)');
  await expect(saved.query('Round trip', 'All tickets')).toContainText('{{note}}');
  await expect(saved.query('Round trip', 'How many')).toBeVisible();
  await saved.query('Round trip', 'How many').getByRole('button', { name: 'Open' }).click();
  await expect(app.viewPanel('Query')).toBeVisible();
  await expect.poll(() => app.editorContent()).toContain('"intent": "count"');
});
