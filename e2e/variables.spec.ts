/**
 * {{variables}} in the editor (issue 11, defect 4): pasting after switching views keeps every
 * placeholder as written (format on paste used to turn `{{prio}}` into `{ {prio } }`), so a query
 * saved from it keeps its variable; placeholders are highlighted, show their value on hover, and an
 * undefined one is an editor error that stops the run with the Saved view's sentence.
 */
import { expect, test } from './fixtures/test.ts';
import { SavedPage } from './pages/saved-page.ts';

const DOCUMENT = `{
  "__meta__": {
    "namespace": "tickets.Ticket",
    "intent": "retrieve",
    "filter": { "priority": {{prio}}, "status": "{{status}}" },
    "limit": 3
  },
  "title": null,
  "priority": null
}`;

test('pasting after switching views keeps the placeholders, and so does the saved query', async ({ app, page }) => {
  const saved = new SavedPage(page);
  await app.showView('Saved');
  await saved.newCollectionName.fill('Triage');
  await saved.createButton.click();
  await app.showView('Query');

  await app.setQuery(`{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve", "filter": {"priority": {{prio}}}}}`);
  await expect.poll(() => app.editorContent()).toContain('"priority": {{prio}}');
  expect(await app.editorContent()).not.toMatch(/\{ \{|\{\{ ?prio \}/);
  await page.getByRole('button', { name: 'Format', exact: true }).click();
  await expect.poll(() => app.editorContent()).toMatch(/"namespace": "tickets.Ticket",\s*"intent"/);
  expect(await app.editorContent()).toContain('"priority": {{prio}}');

  await app.showView('Saved');
  await saved.saveName.fill('By priority');
  await saved.saveButton.click();
  await expect(saved.notice).toHaveText('Saved "By priority".');
  await expect(saved.query('Triage', 'By priority')).toContainText('{{prio}}');
  await saved.query('Triage', 'By priority').getByRole('button', { name: 'Open' }).click();
  await expect.poll(() => app.editorContent()).toContain('"priority": {{prio}}');
});

test('placeholders are highlighted, valued on hover, and an undefined one stops the run', async ({ app, page }) => {
  const saved = new SavedPage(page);
  const posts: string[] = [];
  page.on('request', (r) => void (r.method() === 'POST' && r.url().includes('/jql') && posts.push(r.postData() ?? '')));
  await app.showView('Saved');
  await saved.environment.getByRole('button', { name: 'Add a variable' }).click();
  await saved.variableName(1).fill('prio');
  await saved.variableValue(1).fill('4');
  await saved.environment.getByRole('button', { name: 'Save variables' }).click();
  await expect(saved.environment).toContainText('Saved.');
  await app.showView('Query');

  await app.setQuery(DOCUMENT);
  // Monaco splits a decoration across tokens: read the highlighted text as a whole.
  const highlighted = (selector: string) => app.editor.locator(selector).allInnerTexts().then((parts) => parts.join(''));
  await expect.poll(() => highlighted('.jql-variable')).toBe('{{prio}}"{{status}}"');
  await expect.poll(() => highlighted('.jql-variable-missing')).toBe('"{{status}}"');
  await expect(app.errorSquiggles).toHaveCount(1);

  await app.editor.locator('.jql-variable', { hasText: 'prio' }).first().hover();
  await expect(app.hover).toContainText('{{prio}} on Embedded server:');
  await expect(app.hover).toContainText('4');

  // Running stops at the undefined one, with the sentence the Saved view gives.
  const before = posts.filter((p) => p.includes('"tickets.Ticket"')).length;
  await app.editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(app.failure).toHaveText(/^\{\{status\}\} is not defined for this connection \(line \d+, column \d+\)$/);
  expect(posts.filter((p) => p.includes('"tickets.Ticket"')).length).toBe(before);

  // Defined, it runs with the values filled in.
  await app.showView('Saved');
  await saved.environment.getByRole('button', { name: 'Add a variable' }).click();
  await saved.variableName(2).fill('status');
  await saved.variableValue(2).fill('open');
  await saved.environment.getByRole('button', { name: 'Save variables' }).click();
  await expect(saved.environment).toContainText('Saved.');
  await app.showView('Query');
  await expect.poll(() => highlighted('.jql-variable-missing')).toBe('');
  await app.run();
  await expect(app.status).toHaveText(/^200/);
  // The run's own POST: the console checks the connection (verifyAuthentication) on its own meanwhile.
  const run = posts.filter((p) => p.includes('"tickets.Ticket"')).at(-1);
  expect(JSON.parse(run!)).toMatchObject({ __meta__: { filter: { priority: 4, status: 'open' } } });
});
