/**
 * The workspace's `limits.requestsPerMinute` (issue 15 point 8): matched by route, not by URL text,
 * so a percent-encoded path counts against the same window; and a store bounded as an LRU, so many
 * new addresses push out the oldest idle clients instead of clearing every client's window at once.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';

const COUNT = JSON.stringify({ __meta__: { namespace: 'lib.Author', intent: 'count' } });

describe('rate limit', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await testApp({ workspace: writeWorkspace({ ...LIBRARY_WORKSPACE, limits: { requestsPerMinute: 2 } }) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    t.app.server.closeAllConnections();
    await t.close();
  });

  it('counts /%6Aql as /jql over HTTP: the encoded path is the same route, with the same window', async () => {
    const post = (path: string) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: COUNT });
    expect((await post('/jql')).status).toBe(200);
    expect((await post('/%6Aql')).status).toBe(200);
    const third = await post('/%6A%71%6C');
    expect(third.status).toBe(429);
    expect(((await third.json()) as { __errors__: Array<{ code: string }> }).__errors__[0]?.code).toBe('rate_limited');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('keeps a recent client\'s window after more than 10,000 other addresses were seen', async () => {
    const from = (remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/jql', remoteAddress, headers: { 'content-type': 'application/json' }, payload: COUNT });
    const client = '10.1.0.1';
    expect((await from(client)).statusCode).toBe(200);
    expect((await from(client)).statusCode).toBe(200);
    expect((await from(client)).statusCode).toBe(429);
    const others = async (first: number, count: number) => {
      for (let i = first; i < first + count; i += 1) await from(`10.2.${Math.floor(i / 250)}.${(i % 250) + 1}`);
    };
    // 12,000 distinct addresses in all; the client was seen again halfway, so it is among the
    // most recent 10,000 and keeps its exhausted window.
    await others(0, 6_000);
    expect((await from(client)).statusCode).toBe(429);
    await others(6_000, 6_000);
    expect((await from(client)).statusCode).toBe(429);
  }, 60_000);
});
