/** Writing queries: completion from the server's describe, running, markers for errors, tabs. */
import { expect, test } from './fixtures/test.ts';

test('completes a filter key with its lookup from the schema and runs the query', async ({ app, page }) => {
  // Arrange: a retrieve on tickets with an empty filter, once the schema is loaded.
  await expect(app.schemaState).toHaveText('schema: demo');
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 5, filter: { status: 'open' } } });

  // Act: type the start of a key inside the filter and pick the completion.
  await app.caretAfter('"filter": {');
  await page.keyboard.type('"priority__g');
  await expect(app.suggestion('priority__gte')).toBeVisible();
  await app.suggestion('priority__gte').click();
  // The completion inserts the key with a typed placeholder value (selected), and the comma.
  await page.keyboard.type('4');
  await expect.poll(() => app.editorContent()).toContain('"priority__gte": 4,');
  await app.run();

  // Assert: the rows are open tickets of priority 4 or more.
  await expect(app.status).toHaveText(/^200/);
  await expect(app.tableRows).toHaveCount(5);
  const priorities = await app.tableRows.locator('[role=gridcell]:nth-child(5)').allInnerTexts();
  expect(priorities.map(Number).every((p) => p >= 4)).toBe(true);
  await expect(app.tableRows.locator('[role=gridcell]:nth-child(4)')).toHaveText(Array(5).fill('open'));
});

test('offers namespaces and intents valid for them', async ({ app, page }) => {
  await expect(app.schemaState).toHaveText('schema: demo');
  await app.setQuery({ __meta__: { namespace: '', intent: 'retrieve' } });
  await app.caretAfter('"namespace": ');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Control+Space');
  await expect(app.suggestion('"tickets.Ticket"')).toBeVisible();
  await app.suggestion('"tickets.Ticket"').click();
  await expect.poll(() => app.editorContent()).toContain('"namespace": "tickets.Ticket"');
  await app.caretAfter('"intent": ');
  await page.keyboard.press('Shift+End');
  await page.keyboard.press('Control+Space');
  await expect(app.suggestion('"retrieveOne"')).toBeVisible();
  await expect(app.suggestion('"login"')).toHaveCount(0);
});

test('pins the server error on the misspelled field and reveals it from the errors list', async ({ app }) => {
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { priorty__gte: 3 } } });
  await app.run();

  await expect(app.status).toHaveText(/^400/);
  await expect(app.view('Errors')).toHaveAttribute('aria-selected', 'true');
  await expect(app.errorsList).toContainText('unknown_field');
  await expect(app.errorSquiggles).toHaveCount(1);

  await app.errorsList.getByRole('button').first().click();
  await expect(app.hover).toContainText('Unknown field "priorty" on tickets.Ticket');
  await expect(app.hover).toContainText('unknown_field');
});

test('keeps several tabs, each with its own document', async ({ app, page }) => {
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'count' } });
  await app.newTabButton.click();
  await app.setQuery({ __meta__: { namespace: 'system.User', intent: 'retrieve' } });

  await expect(app.editorTabs).toHaveCount(2);
  await expect(app.editorTabs.nth(0)).toContainText('Ticket · count');
  await expect(app.editorTabs.nth(1)).toContainText('User · retrieve');

  // Tabs survive a reload; responses do not come back on their own.
  await app.run();
  await expect(app.status).toHaveText(/^200/);
  await page.reload();
  await expect(app.editorTabs).toHaveCount(2);
  await expect(page.getByTestId('response-empty')).toContainText('Last run');
  await app.editorTabs.nth(0).click();
  await expect.poll(() => app.editorContent()).toContain('"count"');
});

test('inserts a template for an intent and formats the document', async ({ app, page }) => {
  await expect(app.schemaState).toHaveText('schema: demo');
  await page.getByRole('button', { name: 'Templates ▾' }).click();
  const templates = page.getByRole('dialog', { name: 'Templates' });
  await templates.getByRole('textbox', { name: 'Filter namespaces' }).fill('system.User');
  await templates.getByRole('group', { name: 'system.User model' }).getByRole('button', { name: 'create' }).click();
  await expect.poll(() => app.editorContent()).toContain('"intent": "create"');
  await expect.poll(() => app.editorContent()).toContain('"username": ""');

  await app.setQuery('{"__meta__":{"namespace":"tickets.Ticket","intent":"count"}}');
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.type('   ');
  await expect.poll(() => app.editorContent()).toMatch(/^ {3}\{/);
  await page.getByRole('button', { name: 'Format' }).click();
  await expect.poll(() => app.editorContent()).toBe('{\n  "__meta__": {\n    "namespace": "tickets.Ticket",\n    "intent": "count"\n  }\n}');
});

test('accepting a key inserts "key": and opens the suggestions of its value', async ({ app, page }) => {
  await expect(app.schemaState).toHaveText('schema: demo');
  await app.setQuery('{\n  "__meta__": {\n    "limit": 5\n  }\n}');
  await app.caretAfter('"limit": 5');

  await page.keyboard.type(',\n"namesp');
  await expect(app.suggestion('namespace')).toBeVisible();
  await page.keyboard.press('Enter');
  // Not a pre-filled namespace: the key, and the namespaces to pick from.
  await expect.poll(() => app.editorContent()).toMatch(/"namespace": \n/);
  await expect(app.suggestion('"tickets.Ticket"')).toBeVisible();
  await app.suggestion('"tickets.Ticket"').click();
  await expect.poll(() => app.editorContent()).toContain('"namespace": "tickets.Ticket"');

  await page.keyboard.type(',\n"inte');
  await expect(app.suggestion('intent')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect.poll(() => app.editorContent()).toMatch(/"intent": \n/);
  await expect(app.suggestion('"retrieveOne"')).toBeVisible();
  await expect(app.suggestion('"login"')).toHaveCount(0);
  await app.suggestion('"retrieve"').click();
  await expect.poll(() => app.editorContent()).toContain('"intent": "retrieve"');
});
