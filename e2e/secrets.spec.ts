/**
 * Secrets stay secret (issue 11, defect 5): while a stream's server is down and the console keeps
 * reconnecting, no token shows in the page's console log (the socket signs in with a message, not
 * with ?token= in its URL); no URL the page opens carries a token, checked from every request and
 * socket the page makes; and a password typed in a login document is not kept in the history.
 */
import { expect, REMOTE_ADMIN, test } from './fixtures/test.ts';
import { startServer } from './fixtures/serve.ts';
import { HistoryPage } from './pages/history-page.ts';
import { StreamsPage } from './pages/streams-page.ts';

test('no token in any URL the page opens, in the console log while a stream server is down, or in the history', async ({ app, page, baseURL }) => {
  test.setTimeout(90_000);
  const server = await startServer({ corsOrigin: new URL(baseURL!).origin, admin: `${REMOTE_ADMIN.username}:${REMOTE_ADMIN.password}` });
  try {
    // Every credential of the run: the local admin's cookie (the page never holds it; it must never be in
    // a URL or a log either) and each sign-in's token.
    const localAdmin = (await page.context().cookies()).find((c) => c.name.startsWith('jql_local_admin_'));
    expect(localAdmin?.httpOnly).toBe(true);
    // ... and the page's secret that goes with it (sent in a header to its own origin only).
    const pageSecret = await page.evaluate(() => localStorage.getItem('jql-local-admin-secret'));
    expect(pageSecret).toBeTruthy();
    const tokens = new Set<string>([localAdmin!.value, pageSecret!]);
    const urls: string[] = [];
    const logged: string[] = [];
    page.on('request', (r) => void urls.push(r.url()));
    page.on('websocket', (ws) => void urls.push(ws.url()));
    page.on('console', (m) => void logged.push(m.text()));
    // Browser mode's stream sockets live in a worker: its console (where Chromium logs a failed
    // socket with its URL) is watched as well as the page's.
    page.on('worker', (worker) => worker.on('console', (m) => void logged.push(m.text())));
    page.on('pageerror', (e) => void logged.push(String(e)));
    page.on('response', async (r) => {
      if (!/\/jql$/.test(r.url()) || !(r.request().postData() ?? '').includes('"login"')) return;
      const token = ((await r.json().catch(() => null)) as { __payload__?: { token?: string } } | null)?.__payload__?.token;
      if (token) tokens.add(token);
    });

    // A signed-in connection whose stream is open, then the server goes down.
    await app.addConnection('Flaky', server.url, REMOTE_ADMIN);
    const streams = new StreamsPage(page);
    await app.showView('Streams');
    await streams.connectionPicker.selectOption({ label: 'Flaky' });
    await expect(streams.connectionState).toContainText('Flaky: open');
    await streams.namespace.fill('tickets.Ticket');
    await streams.subscribeButton.click();
    await expect(streams.subscription('s1')).toContainText('active');
    await server.stop();
    // The console tries again and fails at least once (Chromium logs a failed socket with its URL, in
    // the worker's console or the page's); the sockets' URLs are checked in stream-client's unit tests.
    await expect(streams.connectionState).toContainText('Could not open', { timeout: 30_000 });

    // The embedded connection's stream too, and queries, and a login typed in the editor.
    await streams.connectionPicker.selectOption({ label: 'Embedded server' });
    await expect(streams.connectionState).toContainText('Embedded server: open');
    await app.runOn('Embedded server', { __meta__: { namespace: 'tickets.Ticket', intent: 'count' } });
    await app.runOn('Embedded server', { __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username: 'viewer', password: 'viewer-demo' });
    const history = new HistoryPage(page);
    await app.showView('History');
    await expect(history.runs.first()).toBeVisible();

    expect(tokens.size).toBeGreaterThanOrEqual(3);
    for (const token of tokens) {
      expect(urls.filter((u) => u.includes(token))).toEqual([]);
      expect(logged.filter((l) => l.includes(token))).toEqual([]);
    }
    expect(urls.filter((u) => /[?&](token|access_token|jwt)=/i.test(u))).toEqual([]);
    await expect(history.root).not.toContainText('viewer-demo');
    await expect(history.runs.filter({ hasText: '"intent": "login"' }).first()).toContainText('"password": "(redacted)"');
  } finally {
    await server.stop();
  }
});
