import { describe, expect, it } from 'vitest';
import { createBrowserTransport } from './browser-transport.ts';
import type { HttpRequestSpec } from './transport.ts';
import { localAdminHeaders, localAdminProtocols, type LocalAdminPage } from './local-admin-secret.ts';

const page: LocalAdminPage = { origin: 'http://127.0.0.1:8787', secret: () => 's3cret' };

describe('the local admin page secret', () => {
  it('goes to the page own origin only: another port, host or scheme of 127.0.0.1 never gets it', () => {
    expect(localAdminHeaders('http://127.0.0.1:8787/jql', page)).toEqual({ 'X-JQL-Local-Admin': 's3cret' });
    expect(localAdminHeaders('/jql', page)).toEqual({ 'X-JQL-Local-Admin': 's3cret' });
    for (const elsewhere of ['http://127.0.0.1:9999/jql', 'http://localhost:8787/jql', 'https://127.0.0.1:8787/jql', 'ftp://127.0.0.1:8787/jql']) {
      expect(localAdminHeaders(elsewhere, page)).toEqual({});
    }
  });

  it('is offered as a subprotocol on a socket to the own origin, never in its URL', () => {
    expect(localAdminProtocols('ws://127.0.0.1:8787/jql-streams', page)).toEqual(['jql-local-admin', 'jql-local-admin.s3cret']);
    expect(localAdminProtocols('ws://127.0.0.1:9999/jql-streams', page)).toEqual([]);
    expect(localAdminProtocols('wss://127.0.0.1:8787/jql-streams', page)).toEqual([]);
  });

  it('is nothing without a page or a stored secret', () => {
    expect(localAdminHeaders('http://127.0.0.1:8787/jql', null)).toEqual({});
    expect(localAdminProtocols('ws://127.0.0.1:8787/jql-streams', { ...page, secret: () => null })).toEqual([]);
  });

  it('is sent by the browser transport with cookies to its own origin, not to another nor without cookies', async () => {
    const sent: Array<{ url: string; headers: Record<string, string> }> = [];
    const transport = createBrowserTransport(async (url, init) => {
      sent.push({ url, headers: init.headers as Record<string, string> });
      return new Response('{}', { status: 200 });
    }, undefined, () => page);
    const base: HttpRequestSpec = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', connectionId: 'c', url: 'http://127.0.0.1:8787/jql', withCredentials: false };
    await transport.send({ ...base, connectionCredentials: true });
    await transport.send({ ...base, url: 'http://127.0.0.1:9999/jql', withCredentials: true });
    await transport.send(base);
    expect(sent.map((s) => s.headers['X-JQL-Local-Admin'] ?? null)).toEqual(['s3cret', null, null]);
  });
});
