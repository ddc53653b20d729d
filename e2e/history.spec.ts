/**
 * History: every run is recorded with its summary; a recorded run re-runs on today's data, in the tab it
 * came from while that tab is open and unchanged, else in a new tab.
 */
import { expect, test } from './fixtures/test.ts';
import { HistoryPage } from './pages/history-page.ts';

test('records each run and re-runs one from the history', async ({ app, page }) => {
  const marker = `history-probe-${Date.now()}`;
  const count = { __meta__: { namespace: 'tickets.Ticket', intent: 'count', filter: { title__icontains: marker } } };
  const history = new HistoryPage(page);

  // Arrange: a count (0), then a ticket that the count will find.
  await app.runOn('Embedded server', count);
  await expect(app.jsonTree).toContainText('count: 0');
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'create' }, title: `Ticket ${marker}` });

  // Act: find the count in the history and re-run it.
  await app.showView('History');
  await history.search.fill(marker);
  await expect(history.runs).toHaveCount(2);
  const first = history.runs.filter({ hasText: 'count · 0' });
  await expect(first).toContainText('Embedded server');
  await expect(first).toContainText('200');
  await history.rerun(first).click();

  // Assert: its tab holds another document now, so a new tab opens with it, and counts the new ticket.
  await expect(app.viewPanel('Query')).toBeVisible();
  await expect(app.editorTabs).toHaveCount(2);
  await expect(app.jsonTree).toContainText('count: 1');
  await app.showView('History');
  await expect(history.runs).toHaveCount(3);
  await expect(history.run(0)).toContainText('count · 1');
});

test('re-runs in the tab the run came from while it is open, so tabs do not pile up', async ({ app, page }) => {
  const marker = `history-same-tab-${Date.now()}`;
  const history = new HistoryPage(page);
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'count', filter: { title__icontains: marker } } });
  await expect(app.editorTabs).toHaveCount(1);

  for (const expected of [2, 3]) {
    await app.showView('History');
    await history.search.fill(marker);
    await history.rerun(history.run(0)).click();
    await expect(app.viewPanel('Query')).toBeVisible();
    await expect(app.editorTabs).toHaveCount(1);
    await app.showView('History');
    await expect(history.runs).toHaveCount(expected);
  }
});

test('searches the history and deletes a run', async ({ app, page }) => {
  const marker = `history-delete-${Date.now()}`;
  const history = new HistoryPage(page);
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 1, filter: { title__icontains: marker } } });
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', filter: { priorty: 1 }, comment: marker } }, /^400/);

  await app.showView('History');
  await history.search.fill(marker);
  await expect(history.runs).toHaveCount(2);
  await history.root.getByLabel('Outcome').selectOption('error');
  await expect(history.runs).toHaveCount(1);
  await expect(history.run(0)).toContainText('unknown_field');
  await history.run(0).getByRole('button', { name: 'Delete this run' }).click();
  await expect(history.runs).toHaveCount(0);
  await history.root.getByLabel('Outcome').selectOption('');
  await expect(history.runs).toHaveCount(1);
});
