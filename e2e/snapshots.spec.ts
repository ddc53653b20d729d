/**
 * Snapshot assertions in the console (docs/collections.md "Snapshots"): a request of a collection
 * folder, opened in a tab and run, is approved as its snapshot; after the data changes, running its
 * folder in the Saved view shows the changed record and field, and "Approve new answer" approves it.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures/test.ts';
import { FoldersPage } from './pages/folders-page.ts';

const FOLDER = 'snapshot-check';
const REQUEST = `${FOLDER}/folders.jql.json`;
const NAME = 'Snapshot spec folder';

test('approves an answer in the console, and the next run shows what changed with "Approve new answer"', async ({ app, page, collections }) => {
  const collection = join(collections, 'demo-collection');
  const SNAPSHOT = join(collection, FOLDER, 'folders.snapshot.json');
  const folders = new FoldersPage(page);
  await app.runOn('Embedded server', { __meta__: { namespace: 'documents.Folder', intent: 'create' }, name: NAME });
  let id: number | null = null;
  try {
    await mkdir(join(collection, FOLDER), { recursive: true });
    await writeFile(
      join(collection, REQUEST),
      `${JSON.stringify({ document: { __meta__: { namespace: 'documents.Folder', intent: 'retrieve', filter: { name__startswith: 'Snapshot spec' } }, name: null }, snapshot: {} }, null, 2)}\n`,
    );

    // Open the request in a tab, run it, approve its answer.
    await app.showView('Saved');
    await folders.open(REQUEST);
    await folders.openInTab('folders');
    await app.showView('Query');
    await app.run();
    await expect(app.status).toHaveText(/^200/);
    await page.getByRole('button', { name: 'Approve as snapshot' }).click();
    await expect(app.toasts.filter({ hasText: `Approved the answer as the snapshot of ${REQUEST}.` })).toBeVisible();
    const approved = JSON.parse(await readFile(SNAPSHOT, 'utf8'));
    expect(approved.__payload__).toEqual([{ id: expect.any(Number), name: NAME }]);
    expect(approved.__system__).toBeUndefined();
    id = approved.__payload__[0].id as number;

    // The data moves on: the next run of the folder fails with the record and field that changed.
    await app.runOn('Embedded server', { __meta__: { namespace: 'documents.Folder', intent: 'update', uniqueObject: { id } }, name: 'Snapshot spec renamed' });
    await app.showView('Saved');
    await folders.root.locator(`[data-folder="${FOLDER}"]`).getByRole('button', { name: 'Run folder' }).click();
    await expect(folders.summary).toHaveText('0 passed, 1 failed.');
    await folders.open(REQUEST);
    const snapshot = folders.detail('folders').getByRole('group', { name: 'Snapshot' });
    await expect(snapshot.getByTestId('snapshot-state')).toHaveText('The answer differs from its approved snapshot:');
    await expect(snapshot.getByLabel('Snapshot differences')).toHaveText(`~ $.__payload__[id=${id}].name: "${NAME}" -> "Snapshot spec renamed"`);

    await snapshot.getByRole('button', { name: 'Approve new answer' }).click();
    await expect(snapshot.getByTestId('snapshot-state')).toHaveText('The new answer is approved as the snapshot.');
    expect(JSON.parse(await readFile(SNAPSHOT, 'utf8')).__payload__).toEqual([{ id, name: 'Snapshot spec renamed' }]);
    await folders.root.locator(`[data-folder="${FOLDER}"]`).getByRole('button', { name: 'Run folder' }).click();
    await expect(folders.summary).toHaveText('1 passed, 0 failed.');
  } finally {
    await rm(join(collection, FOLDER), { recursive: true, force: true });
    // The record this spec made goes too, so no other spec meets it.
    if (id !== null) await app.runOn('Embedded server', { __meta__: { namespace: 'documents.Folder', intent: 'delete', uniqueObject: { id } } });
  }
});
