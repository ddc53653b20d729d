/**
 * Values shown as the server sent them (issue 31 items 4 and 5), with answers of this spec's own
 * small server, none of which the hostile catalogue holds: decimals with more significant digits
 * than a double keeps, negative and nested 64-bit integers, an error whose path holds a zero-width
 * space and bidi isolates, and a stream event with big integers and an isolate in a key.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Page } from '@playwright/test';
import { WebSocketServer } from 'ws';
import { expect, test } from './fixtures/test.ts';
import { ConsolePage } from './pages/console-page.ts';
import { StreamsPage } from './pages/streams-page.ts';

const THING = { fields: { id: { type: 'integer', required: false, null: false, lookups: ['exact'] } }, relations: {}, search: [], ordering: ['id'], intents: ['retrieve'], permissions: {} };
const DESCRIBE = { version: '2.0', workspace: 'x', mode: 'development', limits: { defaultLimit: 100, maxLimit: 1000, maxFileBytes: 1e7, maxBodyBytes: 1e7 }, apps: { x: { models: { Thing: THING }, controllers: {}, collections: {} } } };
const envelope = (payload: unknown, more: object = {}) => JSON.stringify({ __payload__: payload, __message__: null, __extras__: null, __errors__: null, __system__: null, __intent__: 'retrieve', ...more });

/** The answers, by the first segment of the connection's URL. Written as text where digits matter. */
const ANSWERS: Record<string, { status: number; body: string }> = {
  digits: {
    status: 200,
    body: '{"__payload__":[{"id":-9007199254740993,"amount":12345678901234.5678,"rate":0.30000000000000000001,"deep":{"v":[18446744073709551615]}},{"id":-9007199254740992,"amount":12345678901234.568,"rate":0.3,"deep":{"v":[1]}}],"__message__":null,"__extras__":null,"__errors__":null,"__system__":null,"__intent__":"retrieve"}',
  },
  'error-path': { status: 400, body: envelope(null, { __errors__: [{ code: 'validation_error', message: 'Not valid', path: ['filter', 'ti\u200Btle', 'a\u2066b\u2069'] }] }) },
};

const EVENT = (id: string) =>
  `{"type":"event","subscription":${JSON.stringify(id)},"event":"created","namespace":"x.Thing","seq":1,"at":"2026-01-01T00:00:00Z","record":{"id":9007199254740993,"t\\u2066itle":"x","n":{"v":-18446744073709551617}}}`;

let base = '';
let stop = async (): Promise<void> => undefined;

function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  const [, name = '', ...rest] = new URL(req.url ?? '/', 'http://x').pathname.split('/');
  const send = (status: number, text: string): void => void res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  if (rest.join('/') === 'healthz') return send(200, JSON.stringify({ status: 'ok', version: '2.0' }));
  let meta: { namespace?: string } = {};
  try {
    meta = (JSON.parse(body) as { __meta__?: typeof meta }).__meta__ ?? {};
  } catch {
    // not JSON: the entry's answer
  }
  if (meta.namespace === 'system.Schema') return send(200, envelope(DESCRIBE, { __intent__: 'describe' }));
  const entry = ANSWERS[name] ?? { status: 200, body: envelope([]) };
  send(entry.status, entry.body);
}

test.beforeAll(async () => {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
    res.setHeader('access-control-allow-credentials', 'true');
    res.setHeader('access-control-allow-headers', 'content-type, authorization, accept');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', () => undefined);
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { type?: string; id?: string };
        if (m.type !== 'subscribe' || typeof m.id !== 'string') return;
        ws.send(JSON.stringify({ type: 'subscribed', id: m.id, seq: 0 }));
        ws.send(EVENT(m.id));
      });
    }),
  );
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stop = () =>
    new Promise((resolve) => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
});
test.afterAll(() => stop());

/** The connections are stored before the page loads, as ones added earlier would be. */
async function openWith(page: Page, names: string[]): Promise<ConsolePage> {
  await page.addInitScript(
    ({ url, list }) =>
      (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(
        'jql.connections.v1',
        JSON.stringify({ connections: list.map((n) => ({ id: n, name: n, baseUrl: `${url}/${n}`, authClass: 'jwt', user: null, deployment: 'development', readOnly: false })) }),
      ),
    { url: base, list: names },
  );
  const app = new ConsolePage(page);
  await app.open();
  return app;
}

const QUERY = { __meta__: { namespace: 'x.Thing', intent: 'retrieve' } };

test('decimals and negative, nested 64-bit integers show the digits sent in the table and the tree', async ({ page }) => {
  const app = await openWith(page, ['digits']);
  await app.runOn('digits', QUERY);
  const cells = app.tableRows.first().getByRole('gridcell');
  await expect(cells.nth(0)).toHaveText('-9007199254740993');
  await expect(cells.nth(1)).toHaveText('12345678901234.5678');
  await expect(cells.nth(2)).toHaveText('0.30000000000000000001');
  await expect(app.tableRows.nth(1).getByRole('gridcell').nth(1)).toHaveText('12345678901234.568');
  await app.view('JSON').click();
  await expect(app.jsonTree).toContainText('amount: 12345678901234.5678');
  await app.jsonTree.getByText('deep', { exact: false }).first().click();
  await app.jsonTree.getByText(/^v/).first().click();
  await expect(app.jsonTree).toContainText('18446744073709551615');
});

test("an error's path shows its zero-width and bidi characters as placeholders", async ({ page }) => {
  const app = await openWith(page, ['error-path']);
  await app.runOn('error-path', QUERY, /^400/);
  await app.view('Errors').click();
  await expect(app.errorsList).toContainText('path filter.ti⟨U+200B⟩tle.a⟨U+2066⟩b⟨U+2069⟩');
});

test('a stream event keeps its big integers and shows an isolate in a key', async ({ page }) => {
  const app = await openWith(page, ['events']);
  const streams = new StreamsPage(page);
  await app.showView('Streams');
  await streams.connectionPicker.selectOption('events');
  await streams.namespace.fill('x.Thing');
  await streams.subscribeButton.click();
  await expect(streams.events).toHaveCount(1);
  await expect(streams.events.first()).toContainText('9007199254740993');
  await streams.events.first().click();
  await expect(streams.detail).toContainText('t⟨U+2066⟩itle');
  await expect(streams.detail).toContainText('9007199254740993');
});
