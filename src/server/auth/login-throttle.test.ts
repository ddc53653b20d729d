// Issue 15 point 7 (docs/protocol.md "Authentication"): after 5 failed logins for one username from one client within 15
// minutes, further logins for that pair are 429 rate_limited with Retry-After, even with the right
// password; other usernames and other clients are not affected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../index.ts';
import { startServer } from '../testing/fixture.ts';
import { LoginThrottle } from './login-throttle.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const loginBody = (username: string, password: string) => JSON.stringify({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username, password });

async function login(username: string, password: string) {
  const response = await fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: loginBody(username, password) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as any };
}

describe('login throttling over HTTP', () => {
  it('refuses the sixth login of a username from a client, even with the right password, and no one else', async () => {
    for (let attempt = 1; attempt <= 5; attempt++) expect((await login('agent', `guess-${attempt}`)).status).toBe(401);
    const right = await login('agent', 'agent-demo');
    expect(right.status).toBe(429);
    expect(right.body.__errors__[0].code).toBe('rate_limited');
    expect(Number(right.retryAfter)).toBeGreaterThan(14 * 60);
    expect(Number(right.retryAfter)).toBeLessThanOrEqual(15 * 60);
    // Another username from the same client, and the same username from another client.
    expect((await login('viewer', 'viewer-demo')).status).toBe(200);
    const elsewhere = await server.app.inject({
      method: 'POST',
      url: '/jql',
      remoteAddress: '127.0.0.2',
      headers: { 'content-type': 'application/json', host: new URL(server.url).host },
      payload: loginBody('agent', 'agent-demo'),
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('throttles unknown usernames the same way (no hint that the user does not exist)', async () => {
    for (let attempt = 1; attempt <= 5; attempt++) expect((await login('nobody-here', 'x')).status).toBe(401);
    expect((await login('nobody-here', 'x')).status).toBe(429);
  });
});

describe('LoginThrottle', () => {
  it('lets the pair in again once the oldest of the five failures is 15 minutes old, and forgets on success', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle(undefined, () => now);
    for (let i = 0; i < 5; i++) {
      expect(throttle.retryAfter('c', 'u')).toBe(0);
      throttle.recordFailure('c', 'u');
      now += 60_000;
    }
    // First failure at t0, now t0 + 5 min: 10 minutes to go.
    expect(throttle.retryAfter('c', 'u')).toBe(600);
    now += 600_000 - 1;
    expect(throttle.retryAfter('c', 'u')).toBe(1);
    now += 1;
    expect(throttle.retryAfter('c', 'u')).toBe(0);
    throttle.recordFailure('c', 'u');
    expect(throttle.retryAfter('c', 'u')).toBeGreaterThan(0);
    throttle.recordSuccess('c', 'u');
    expect(throttle.retryAfter('c', 'u')).toBe(0);
  });

  it('keeps at most maxTracked pairs, whatever the length of the usernames', () => {
    const throttle = new LoginThrottle({ maxFailures: 5, windowMs: 60_000, maxTracked: 100 });
    for (let i = 0; i < 1000; i++) throttle.recordFailure(`client-${i}`, 'x'.repeat(10_000));
    expect(throttle.size).toBe(100);
  });
});
