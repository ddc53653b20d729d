/**
 * Ctrl/Cmd+S in the Query view (issue 17, defect 9): the first time, the console asks where (the
 * collection folder open in the Saved view is offered) and writes a request file; after that the same
 * keys write the same file without asking. A tab opened from a request file saves back into it,
 * keeping the file's assertions. Checked on disk, in the copy of the demo collection the runner serves.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './fixtures/test.ts';
import { FoldersPage } from './pages/folders-page.ts';

const onDisk = async (folder: string, file: string) => JSON.parse(await readFile(join(folder, file), 'utf8'));
const URGENT = { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { priority: 5 } }, title: null };

test('asks where the first time, writes a request file, then saves again in place without asking', async ({ app, page, collections }) => {
  const folder = join(collections, 'demo-collection');
  const name = `Urgent tickets ${Date.now()}`;
  const file = `${name}.jql.json`;
  try {
    // Act: Ctrl/Cmd+S on a tab never saved.
    await app.setQuery(URGENT);
    await app.saveTab();

    // Assert: it asks, offering the open collection folder and the tab's title as the name.
    await expect(app.saveDialog).toBeVisible();
    await expect(app.saveInto.locator('option:checked')).toHaveText('Demo helpdesk (demo-collection)');
    await expect(app.saveName).toHaveValue('Ticket retrieve');
    await app.saveName.fill(name);
    await expect(app.savePath).toContainText(`Writes ${file}`);
    await app.saveDialog.getByRole('button', { name: 'Save' }).click();
    await expect(app.saveDialog).toBeHidden();
    await expect(app.toasts.filter({ hasText: `Saved ${file} in Demo helpdesk` })).toBeVisible();
    expect(await onDisk(folder, file)).toEqual({ document: URGENT });

    // Act: an edit, and the same keys again.
    const edited = { ...URGENT, __meta__: { ...URGENT.__meta__, ordering: ['-id'] } };
    await app.setQuery(edited);
    await app.saveTab();

    // Assert: no question this time; the file holds the edit.
    await expect.poll(async () => (await onDisk(folder, file)).document).toEqual(edited);
    await expect(app.saveDialog).toBeHidden();

    // The Saved view lists the new request.
    const folders = new FoldersPage(page);
    await app.showView('Saved');
    await expect(folders.request(file)).toBeVisible();
  } finally {
    await rm(join(folder, file), { force: true });
  }
});

test('a tab opened from a request file saves back into it, keeping its assertions', async ({ app, page, collections }) => {
  const folder = join(collections, 'demo-collection');
  const file = '01-open-tickets.jql.json';
  const original = await readFile(join(folder, file), 'utf8');
  try {
    const folders = new FoldersPage(page);
    await app.showView('Saved');
    await folders.open(file);
    await folders.openInTab('01-open-tickets');
    await expect(app.viewPanel('Query')).toBeVisible();
    await expect(app.editorText).toContainText('"priority__gte": 4');

    const edited = { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { status: 'open', priority__gte: 3 }, limit: 5 }, title: null, status: null, priority: null };
    await app.setQuery(edited);
    await app.saveTab();

    await expect.poll(async () => (await onDisk(folder, file)).document).toEqual(edited);
    await expect(app.saveDialog).toBeHidden();
    const saved = await onDisk(folder, file);
    const before = JSON.parse(original);
    expect(saved.assertions).toEqual(before.assertions);
    expect(saved.tags).toEqual(before.tags);
    expect(saved.description).toBe(before.description);
  } finally {
    await writeFile(join(folder, file), original);
  }
});
