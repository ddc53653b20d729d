/**
 * Collection folders in browser mode: the demo collection (a copy the runner serves with
 * --collections) opens as a tree, an assertion edited in the table lands in the file on disk, a run
 * of the folder shows pass/fail per assertion with the actual value, and an edit made to a file
 * outside the console shows up in the open app.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures/test.ts';
import { FoldersPage } from './pages/folders-page.ts';

const OPEN_TICKETS = '01-open-tickets.jql.json';

test('edits an assertion in the table, the file changes; a run shows each assertion passed or failed', async ({ app, page, collections }) => {
  const folder = join(collections, 'demo-collection');
  const original = await readFile(join(folder, OPEN_TICKETS), 'utf8');
  try {
    const folders = new FoldersPage(page);
    await app.showView('Saved');
    await expect(folders.request('errors/03-a-folder-needs-a-name.jql.json')).toBeVisible();
    await folders.open(OPEN_TICKETS);
    const detail = folders.detail('01-open-tickets');
    await expect(detail.getByLabel('Document')).toContainText('"namespace": "tickets.Ticket"');

    // Act: "extras.queries lte 3" becomes "lte 0", which no retrieve can meet.
    await expect(folders.assertionValue(4)).toHaveValue('3');
    await folders.assertionValue(4).fill('0');
    await folders.saveAssertions.click();
    await expect(detail.getByRole('status')).toHaveText(`Saved ${OPEN_TICKETS}`);

    // The file on disk holds the new value, written the way the runner reads it.
    const onDisk = JSON.parse(await readFile(join(folder, OPEN_TICKETS), 'utf8'));
    expect(onDisk.assertions[3]).toEqual({ target: 'extras.queries', op: 'lte', value: 0 });

    await folders.runAll.click();
    await expect(folders.summary).toHaveText('6 passed, 1 failed.');
    await expect(folders.outcome(OPEN_TICKETS)).toHaveText('✗ 200');
    await expect(folders.outcome('03-create-folder.jql.json')).toHaveText('✓ 200');
    await expect(folders.outcome('errors/02-viewer-may-not-delete-a-ticket.jql.json')).toHaveText('✓ 403');
    await expect(folders.assertionResult(1)).toHaveText('✓ passed · actual 200');
    await expect(folders.assertionResult(4)).toContainText('✗ failed · actual ');
  } finally {
    await writeFile(join(folder, OPEN_TICKETS), original);
  }
});

test('an edit made to a request file outside the console shows up in the open app', async ({ app, page, collections }) => {
  const folder = join(collections, 'demo-collection');
  const path = join(folder, '04-read-the-new-folder.jql.json');
  const original = await readFile(path, 'utf8');
  try {
    const folders = new FoldersPage(page);
    await app.showView('Saved');
    await folders.open('04-read-the-new-folder.jql.json');
    const detail = folders.detail('04-read-the-new-folder');
    await expect(detail).toContainText('Reads the folder just created back');
    const file = JSON.parse(original);
    file.description = 'Changed by a git pull';
    file.assertions.push({ target: 'extras.cached', op: 'exists', value: false });
    await writeFile(path, `${JSON.stringify(file, null, 2)}\n`);
    await expect(detail).toContainText('Changed by a git pull');
    await expect(folders.root.getByLabel('Assertion 5 target')).toHaveValue('extras.cached');
  } finally {
    await writeFile(path, original);
  }
});

test("a saved-queries export imports into a new collection folder, so nothing saved before is lost", async ({ app, page, collections }, testInfo) => {
  const folders = new FoldersPage(page);
  const exportPath = testInfo.outputPath('saved.json');
  await writeFile(
    exportPath,
    JSON.stringify({
      format: 'jql-console/collections',
      version: 1,
      collections: [{ name: 'Kept from before', queries: [{ name: 'Pending count', document: '{"__meta__": {"namespace": "tickets.Ticket", "intent": "count", "filter": {"status": "pending"}}}' }] }],
    }),
  );
  const created = join(collections, 'Kept from before');
  try {
    await app.showView('Saved');
    await folders.root.getByLabel('Import a saved-queries export as folders').setInputFiles(exportPath);
    await expect(folders.root.getByTestId('folders-message')).toHaveText('Imported "Kept from before" into Kept from before (1 request).');
    await expect(folders.request('1-Pending count.jql.json')).toBeVisible();
    const file = JSON.parse(await readFile(join(created, '1-Pending count.jql.json'), 'utf8'));
    expect(file.document.__meta__.filter).toEqual({ status: 'pending' });
  } finally {
    await rm(created, { recursive: true, force: true });
  }
});
