/**
 * Nothing lost without a word (issue 11, defect 2): a 5 MB tab document and a 3 MB saved query
 * survive a reload (IndexedDB, not localStorage's ~5 MB), and a write that fails (a full disk,
 * forced here) says what was not saved while the document stays in the editor.
 */
import { expect, test } from './fixtures/test.ts';
import type { ConsolePage } from './pages/console-page.ts';
import { SavedPage } from './pages/saved-page.ts';
import { failStorageWrites, installStorageSwitch } from './pages/storage.ts';

/** A valid query document of about `bytes`, with markers at both ends to find after a reload. */
function bigDocument(bytes: number, tag: string): string {
  const titles = Array.from({ length: Math.ceil(bytes / 32) }, (_, i) => `${tag} title number ${i} padded`);
  return JSON.stringify({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', comment: `start-${tag}` }, title__in: titles, end: `end-${tag}` }, null, 2);
}

/** The first and the last lines the editor shows: the whole document is there. */
async function expectEnds(app: ConsolePage, tag: string): Promise<void> {
  await app.editor.locator('.view-lines').click();
  await app.page.keyboard.press('ControlOrMeta+Home');
  await expect.poll(() => app.editorContent()).toContain(`start-${tag}`);
  await app.page.keyboard.press('ControlOrMeta+End');
  await expect.poll(() => app.editorContent()).toContain(`end-${tag}`);
}

test('a 5 MB tab document survives a reload', async ({ app, page }) => {
  test.setTimeout(120_000);
  const text = bigDocument(5 * 1024 * 1024, 'five');
  expect(text.length).toBeGreaterThan(5 * 1024 * 1024);
  await app.setQuery(text);
  await expect(app.editorTabs.first()).toHaveAttribute('data-saved', 'saved', { timeout: 30_000 });

  await page.reload();
  await expect(app.editor.locator('.monaco-editor')).toBeVisible();
  await expectEnds(app, 'five');
  await expect(app.editorTabs).toHaveCount(1);
});

test('a 3 MB saved query survives a reload', async ({ app, page }) => {
  test.setTimeout(120_000);
  const saved = new SavedPage(page);
  await app.setQuery(bigDocument(3 * 1024 * 1024, 'three'));
  await app.showView('Saved');
  await saved.newCollectionName.fill('Big ones');
  await saved.createButton.click();
  await saved.saveName.fill('Three megabytes');
  await saved.saveButton.click();
  await expect(saved.notice).toHaveText('Saved "Three megabytes".', { timeout: 30_000 });

  await page.reload();
  await app.showView('Saved');
  await expect(saved.query('Big ones', 'Three megabytes')).toBeVisible();
  await saved.query('Big ones', 'Three megabytes').getByRole('button', { name: 'Open' }).click();
  await expect(app.viewPanel('Query')).toBeVisible();
  await expectEnds(app, 'three');
});

test('a write that fails says what was not saved, and the document stays in the editor', async ({ app, page }) => {
  const saved = new SavedPage(page);
  await installStorageSwitch(page);
  await page.reload();
  await expect(app.editor.locator('.monaco-editor')).toBeVisible();
  await app.showView('Saved');
  await saved.newCollectionName.fill('Kept');
  await saved.createButton.click();
  await expect(saved.collection('Kept')).toBeVisible();
  await app.showView('Query');

  // Act: the disk fills up, then the user edits the tab and saves it as a query.
  await failStorageWrites(page, true);
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', comment: 'typed while the disk was full' } });

  // Assert: a toast names the tab; the tab says not saved; the editor still holds the document.
  await expect(app.toasts.filter({ hasText: 'Not saved: the tab "Ticket · retrieve" (the storage for this console is full). The document stays in the editor' })).toBeVisible();
  await expect(app.editorTabs.first()).toContainText('not saved');
  await expect.poll(() => app.editorContent()).toContain('typed while the disk was full');
  // Leaving the page now would lose it: the browser asks first (and the page stays when told to).
  const asked = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  expect(page.isClosed()).toBe(false);

  await app.showView('Saved');
  await saved.saveName.fill('Not kept');
  await saved.saveButton.click();
  await expect(saved.notice).toHaveText('Not saved: the query "Not kept" (the storage for this console is full).');
  await expect(app.toasts.filter({ hasText: 'Not saved: the query "Not kept"' })).toBeVisible();
  await expect(saved.query('Kept', 'Not kept')).toHaveCount(0);

  // Once the disk has room again, the next change stores the tab, and a reload finds it.
  await failStorageWrites(page, false);
  await app.showView('Query');
  await app.editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' ');
  await expect(app.editorTabs.first()).toHaveAttribute('data-saved', 'saved');
  await page.reload();
  await expect.poll(() => app.editorContent()).toContain('typed while the disk was full');
});
