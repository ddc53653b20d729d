/**
 * axe-core (WCAG 2.1 A and AA) with a production connection in use: its colour is on the run
 * target's badge, the sidebar's selected connection and its Delete link, and the read-only refusal.
 * e2e/accessibility.spec.ts checks the views with the embedded (local) connection, where none of
 * these colours show; here #f2555a was 4.09:1 on the toolbar and 3.65:1 on the selected connection.
 */
import { seriousViolations } from './fixtures/axe.ts';
import { expect, REMOTE_ADMIN, test } from './fixtures/test.ts';

test('a production connection, its answer and its read-only refusal have no serious or critical WCAG 2.1 AA violation', async ({ app, page, remoteServer }) => {
  test.setTimeout(120_000);
  // A remote connection starts as production (read-only).
  await app.addConnection('Live', remoteServer.url, REMOTE_ADMIN);
  await app.runOn('Live', { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 2 } });
  expect.soft(await seriousViolations(page), 'with an answer from a production connection').toEqual([]);

  await app.setQuery({ __meta__: { namespace: 'tickets.Ticket', intent: 'delete', uniqueObject: { id: 1 } } });
  await app.runButton.click();
  await expect(app.refusal).toBeVisible();
  expect.soft(await seriousViolations(page), 'with the read-only refusal shown').toEqual([]);
});
