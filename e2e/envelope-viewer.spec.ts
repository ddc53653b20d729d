/** Reading responses: the table, a multi-query's tabs, the SQL panel. */
import { expect, test } from './fixtures/test.ts';

test('reads the rows of a retrieve in the table, sorted by a column', async ({ app }) => {
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { status: 'open' }, limit: 10, ordering: ['id'] }, title: null, priority: null });
  await app.run();

  await expect(app.status).toHaveText(/^200/);
  await expect(app.extras).toContainText(/^10 of \d+/);
  await expect(app.tableRows).toHaveCount(10);
  await expect(app.columnHeader('title')).toBeVisible();

  const ids = async () => (await app.tableRows.locator('[role=gridcell]:nth-child(2)').allInnerTexts()).map(Number);
  const ascending = await ids();
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
  await app.columnHeader('id').getByRole('button').click();
  await app.columnHeader('id').getByRole('button').click();
  await expect(app.columnHeader('id')).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(ids).toEqual([...ascending].reverse());
});

test('shows a nested record expanded under its row and as a JSON tree', async ({ app }) => {
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 3, filter: { assignee__isnull: false } }, title: null, assignee: { username: null } });
  await app.run();

  const nested = app.tableRows.first().getByRole('button', { name: /username/ });
  await nested.click();
  await expect(app.tableRows.first()).toContainText('"username":');

  await app.view('JSON').click();
  await expect(app.jsonTree).toContainText('assignee');
});

test('opens each query of a multi-query in its own tab', async ({ app }) => {
  await app.setQuery({
    open: { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { status: 'open' }, limit: 3 }, title: null },
    total: { __meta__: { namespace: 'tickets.Ticket', intent: 'count' } },
    broken: { __meta__: { namespace: 'tickets.Nope', intent: 'count' } },
  });
  await app.run();

  await expect(app.subqueryTabs).toHaveText([/^open/, /^total/, /^broken/]);
  await expect(app.tableRows).toHaveCount(3);

  await app.subquery('total').click();
  await expect(app.view('JSON')).toHaveAttribute('aria-selected', 'true');
  await expect(app.jsonTree).toContainText('count');

  await app.subquery('broken').click();
  await app.view('Errors').click();
  await expect(app.errorsList).toContainText('unknown_namespace');
  await expect(app.errorsList).toContainText('broken');
});

test('reads the SQL the server ran, after asking for it', async ({ app }) => {
  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { priority__gte: 4 }, limit: 2 } });
  await app.run();
  await app.view('SQL').click();
  await expect(app.page.getByRole('button', { name: 'Ask for SQL and run again' })).toBeVisible();

  await app.page.getByRole('button', { name: 'Ask for SQL and run again' }).click();

  await expect(app.queryInfoLevel).toHaveValue('2');
  await expect(app.sqlStatements.first()).toContainText(/SELECT/i);
  await expect(app.sqlStatements.first()).toContainText('params: [4');
});

test('an empty result says the query matched nothing and shows the filter it was asked with', async ({ app }) => {
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { title: 'no such ticket', priority__gte: 4 } } });
  const empty = app.page.getByTestId('empty-result');
  await expect(empty).toContainText('The query matched nothing.');
  await expect(app.page.getByTestId('empty-result-conditions')).toContainText('"title": "no such ticket"');
  await expect(app.page.getByTestId('empty-result-conditions')).toContainText('"priority__gte": 4');
  await expect(app.table).toHaveCount(0);
});

test('the arrow keys move the selected cell of the table', async ({ app }) => {
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', ordering: ['id'], limit: 5 }, title: null, status: null });
  await app.tableRows.nth(0).getByRole('gridcell').nth(0).click();
  await expect(app.tableRows.nth(0).getByRole('gridcell').nth(0)).toHaveAttribute('aria-selected', 'true');
  await app.page.keyboard.press('ArrowDown');
  await app.page.keyboard.press('ArrowDown');
  await app.page.keyboard.press('ArrowRight');
  const selected = app.table.locator('[role=gridcell][aria-selected=true]');
  await expect(selected).toHaveCount(1);
  await expect(app.tableRows.nth(2).getByRole('gridcell').nth(1)).toHaveAttribute('aria-selected', 'true');
});
