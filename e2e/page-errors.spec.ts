/** No view throws: the console is walked through every view, and any uncaught page error fails it. */
import { expect, test } from './fixtures/test.ts';

const VIEWS = ['Query', 'Upload', 'Streams', 'History', 'Saved', 'Diff', 'Docs'] as const;

test('every view opens without an uncaught page error', async ({ page, app }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 3 }, title: null });
  for (const view of VIEWS) {
    await app.showView(view);
    // What the view loads on opening (a stream's socket, a describe, the history list) has arrived.
    await page.waitForLoadState('networkidle');
  }
  await app.showView('Query');
  await app.view('JSON').click();
  await app.view('Raw').click();
  expect(errors).toEqual([]);
});
