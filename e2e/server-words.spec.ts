/**
 * Whose words: the embedded server is the console's own, so its version, user, status text and
 * intent read plainly; a remote server's stay marked as the server's words (quoted, outlined).
 */
import { expect, REMOTE_ADMIN, test } from './fixtures/test.ts';

const RETRIEVE = { __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', limit: 2 } };

test('the embedded server speaks plainly; a remote server’s labels stay marked as its words', async ({ app, page, remoteServer }) => {
  // The embedded server: its version and the answer's status text and intent are plain text.
  const embeddedStatus = app.connection('Embedded server').getByTestId('connection-status');
  await expect(embeddedStatus).toContainText('v0.1.0');
  await expect(embeddedStatus.locator('.server-words')).toHaveCount(0);
  await app.runOn('Embedded server', RETRIEVE);
  await expect(page.getByTestId('response-status-text')).toHaveText('OK');
  await expect(page.getByTestId('response-status-text')).not.toHaveClass(/server-words/);
  await expect(app.responseHeader.locator('.server-words')).toHaveCount(0);
  await expect(app.responseHeader).toContainText('retrieve');

  // A remote server: the same words, marked.
  await app.addConnection('Remote', remoteServer.url, REMOTE_ADMIN);
  await expect(app.connection('Remote').getByTestId('connection-status').locator('.server-words').first()).toHaveText(/^v\d/);
  await app.runOn('Remote', RETRIEVE);
  await expect(page.getByTestId('response-status-text')).toHaveClass(/server-words/);
  await expect(app.responseHeader.locator('.server-words', { hasText: 'retrieve' })).toHaveCount(1);
});
