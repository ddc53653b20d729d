/** No view throws: the console is walked through every view, and any uncaught page error fails it. */
import { expect, test } from './fixtures/test.ts';

const VIEWS = ['Query', 'Upload', 'Streams', 'History', 'Saved', 'Diff', 'Docs'] as const;

test('every view opens without an uncaught page error', async ({ page, app }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Requests in flight: a view has settled once what it loads on opening has arrived. (Not
  // 'networkidle': that is a navigation state, and it may never come back after a page is loaded.)
  const inFlight = new Set<unknown>();
  page.on('request', (request) => inFlight.add(request));
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 3 }, title: null });
  for (const view of VIEWS) {
    await app.showView(view);
    // What the view loads on opening (a describe, the history list, the collections) has arrived.
    await expect.poll(() => inFlight.size).toBe(0);
  }
  await app.showView('Query');
  await app.view('JSON').click();
  await app.view('Raw').click();
  expect(errors).toEqual([]);
});
