/** The Streams view starts where people start: a subscription on the workspace's first model. */
import { expect, test } from './fixtures/test.ts';
import { StreamsPage } from './pages/streams-page.ts';

test('a new subscription starts on the first model, not on the NoSQL collection that sorts first', async ({ app, page }) => {
  await expect(app.schemaState).toHaveText('schema: demo');
  await app.showView('Streams');
  const streams = new StreamsPage(page);
  await expect(streams.namespace).toHaveValue('tickets.Ticket');
});
