/**
 * The Errors view on answers no other spec sends (issue 31 review): a server of its own on
 * 127.0.0.1 answers every query with one error, chosen by the connection's path. One page runs
 * them in turn.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures/test.ts';
import { ConsolePage } from './pages/console-page.ts';

/** The one error each path answers with. */
const ERRORS: Record<string, object> = {
  // 2 MB without a space: the boundary cuts it to a message's length, which must still wrap.
  'long-message': { code: 'validation_error', message: 'M'.repeat(2_000_000), field: `f${'x'.repeat(300)}` },
  // A field named with a zero-width space is another field than `title`.
  'zero-width-field': { code: 'unknown_field', message: 'No such field', field: 'ti\u200Btle' },
};

const DESCRIBE = {
  version: '1',
  workspace: 'review',
  mode: 'development',
  limits: { defaultLimit: 100, maxLimit: 1000, maxFileBytes: 1e7, maxBodyBytes: 1e7 },
  apps: {},
};

function envelope(payload: unknown, errors: unknown, intent: string) {
  return { __payload__: payload, __errors__: errors, __message__: null, __extras__: null, __system__: null, __intent__: intent };
}

let server: Server;
let base = '';
test.beforeAll(async () => {
  server = createServer((req, res) => {
    const cors = { 'access-control-allow-origin': req.headers.origin ?? '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': '*' };
    if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const send = (status: number, answer: unknown) => {
        res.writeHead(status, { ...cors, 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
      };
      if (req.url!.endsWith('/healthz')) return send(200, { status: 'ok', version: '1' });
      const intent = (JSON.parse(body || '{}') as { __meta__?: { intent?: string } }).__meta__?.intent ?? '';
      if (intent === 'describe') return send(200, envelope(DESCRIBE, null, 'describe'));
      send(400, envelope(null, [ERRORS[req.url!.split('/')[1]!]], intent));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('the Errors view keeps a long message inside its card and shows a field with a zero-width space as such', async ({ page }) => {
  // Both connections stored before the page loads, as ones added earlier would be.
  await page.addInitScript((url) => {
    const connection = (id: string) => ({ id, name: id, baseUrl: `${url}/${id}`, authClass: 'jwt', user: null, deployment: 'development', readOnly: false });
    (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage.setItem(
      'jql.connections.v1',
      JSON.stringify({ connections: [connection('long-message'), connection('zero-width-field')] }),
    );
  }, base);
  const app = new ConsolePage(page);
  await app.open();
  const card = app.errorsList.locator('.error-link').first();
  const runOn = async (id: string) => {
    await app.connectionSelect.selectOption(id);
    await app.setQuery({ __meta__: { namespace: 'a.B', intent: 'retrieve' } });
    await app.run();
    await expect(app.status).toHaveText(/^400/);
    await app.view('Errors').click();
    await expect(card).toBeVisible();
  };

  await runOn('long-message');
  await expect(card.locator('.error-message')).toContainText('MMMM');
  // Nothing of the card runs past its right edge (the message and the field wrap).
  const overflow = await card.evaluate((node) => {
    const box = node.getBoundingClientRect();
    const parts = [...node.querySelectorAll('.error-message, .error-where')].map((part) => part.getBoundingClientRect().right);
    return Math.max(...parts) - box.right;
  });
  expect(overflow, 'pixels of the message past the card').toBeLessThanOrEqual(0);

  await runOn('zero-width-field');
  await expect(card.locator('.error-where')).toHaveText('field ti⟨U+200B⟩tle');
});
