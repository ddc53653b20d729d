// Issue 15 point 7 and issue 30.9 (docs/protocol.md "Authentication"): failed logins are counted per
// (username, client) pair and, past the free ones, each doubles the pair's wait (429 rate_limited with
// Retry-After, even with the right password); every loopback address is one client; a client that
// signed in before (its known-client cookie) is a client of its own, so others' wrong guesses never
// lock it out, and a client that has not failed signs in with the right password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../index.ts';
import { startServer } from '../testing/fixture.ts';
import { LOGIN_THROTTLE, LoginThrottle, throttleClient } from './login-throttle.ts';

let server: RunningServer;
beforeAll(async () => {
  // A first wait of a minute, so the guesses below all fall inside it however slow the machine.
  server = await startServer({ loginThrottle: { ...LOGIN_THROTTLE, firstWaitMs: 60_000 } });
});
afterAll(() => server.close());

const loginBody = (username: string, password: string) => JSON.stringify({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username, password });

/** A login from `remoteAddress` (the socket's peer), with the cookies given. */
async function login(username: string, password: string, remoteAddress = '127.0.0.1', cookie?: string) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/jql',
    remoteAddress,
    headers: { 'content-type': 'application/json', host: new URL(server.url).host, ...(cookie ? { cookie } : {}) },
    payload: loginBody(username, password),
  });
  const known = response.cookies.find((c) => c.name === 'jql_known_client');
  return { status: response.statusCode, retryAfter: response.headers['retry-after'], body: response.json(), knownClient: known ? `${known.name}=${known.value}` : undefined };
}

describe('login throttling over HTTP', () => {
  it('a browser that signed in before still signs in while another local process guesses its password', async () => {
    // The owner signed in once: the answer made this client known (an HttpOnly cookie bound to the username).
    const owner = await login('agent', 'agent-demo');
    expect(owner.status).toBe(200);
    expect(owner.knownClient).toMatch(/^jql_known_client=[\w-]+\.[\w-]+$/);
    // Any local process, from any address of 127.0.0.0/8 or ::1, guesses: it is one client, throttled.
    const addresses = ['127.0.0.1', '127.0.0.2', '127.5.6.7', '::1', '::ffff:127.0.0.9'];
    const answers: number[] = [];
    for (let guess = 0; guess < 20; guess++) answers.push((await login('agent', `guess-${guess}`, addresses[guess % addresses.length])).status);
    expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.slice(5).every((status) => status === 429)).toBe(true);
    // The guesser itself waits even with the right password, and a made-up known-client cookie does not help it.
    expect((await login('agent', 'agent-demo', '127.0.0.3')).status).toBe(429);
    expect((await login('agent', 'agent-demo', '127.0.0.3', 'jql_known_client=AAAA.BBBB')).status).toBe(429);
    // The owner's browser is not locked out, and a client that has not failed (another machine) signs in.
    expect((await login('agent', 'agent-demo', '127.0.0.1', owner.knownClient)).status).toBe(200);
    expect((await login('agent', 'agent-demo', '192.0.2.10')).status).toBe(200);
    // A known-client cookie is bound to its username: it does not unlock another user's throttle.
    for (let guess = 0; guess < 5; guess++) expect((await login('viewer', `guess-${guess}`)).status).toBe(401);
    expect((await login('viewer', 'viewer-demo', '127.0.0.1', owner.knownClient)).status).toBe(429);
  });

  it('refuses a pair past its free failures with Retry-After, and other usernames are not affected', async () => {
    for (let attempt = 1; attempt <= 5; attempt++) expect((await login('admin', `guess-${attempt}`, '198.51.100.7')).status).toBe(401);
    const right = await login('admin', 'admin-demo', '198.51.100.7');
    expect(right.status).toBe(429);
    expect(right.body.__errors__[0].code).toBe('rate_limited');
    expect(Number(right.retryAfter)).toBeGreaterThan(50);
    expect(Number(right.retryAfter)).toBeLessThanOrEqual(60);
    expect((await login('nobody-here', 'x', '198.51.100.7')).status).toBe(401);
  });

  it('throttles unknown usernames the same way (no hint that the user does not exist)', async () => {
    for (let attempt = 1; attempt <= 5; attempt++) expect((await login('nobody-at-all', 'x', '198.51.100.8')).status).toBe(401);
    expect((await login('nobody-at-all', 'x', '198.51.100.8')).status).toBe(429);
  });
});

describe('LoginThrottle', () => {
  it('doubles the wait with each failure from the fifth on (30 s first), up to 15 minutes, and forgets on success', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle(undefined, () => now);
    for (let i = 0; i < LOGIN_THROTTLE.freeFailures; i++) {
      expect(throttle.retryAfter('c', 'u')).toBe(0);
      throttle.recordFailure('c', 'u');
    }
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const wait = throttle.retryAfter('c', 'u');
      waits.push(wait);
      now += wait * 1000;
      expect(throttle.retryAfter('c', 'u')).toBe(0);
      throttle.recordFailure('c', 'u');
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 900, 900, 900, 900, 900, 900, 900]);
    // Another client of the same username, and the same client for another username, never failed.
    expect(throttle.retryAfter('d', 'u')).toBe(0);
    expect(throttle.retryAfter('c', 'v')).toBe(0);
    throttle.recordSuccess('c', 'u');
    expect(throttle.retryAfter('c', 'u')).toBe(0);
  });

  it('forgets a pair 15 minutes after its wait ended without a new failure', () => {
    let now = 0;
    const throttle = new LoginThrottle(undefined, () => now);
    for (let i = 0; i < 8; i++) {
      now += throttle.retryAfter('c', 'u') * 1000;
      throttle.recordFailure('c', 'u');
    }
    expect(throttle.retryAfter('c', 'u')).toBe(240);
    now += 240_000 + 15 * 60_000;
    throttle.recordFailure('c', 'u');
    expect(throttle.retryAfter('c', 'u')).toBe(0);
  });

  it('counts every loopback address as one client', () => {
    for (const address of ['127.0.0.1', '127.255.0.2', '::1', '::ffff:127.0.0.1']) expect(throttleClient(address)).toBe('loopback');
    expect(throttleClient('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(throttleClient('2001:db8::1')).toBe('2001:db8::1');
  });

  it('keeps at most maxTracked pairs, whatever the length of the usernames', () => {
    const throttle = new LoginThrottle({ ...LOGIN_THROTTLE, maxTracked: 100 });
    for (let i = 0; i < 1000; i++) throttle.recordFailure(`client-${i}`, 'x'.repeat(10_000));
    expect(throttle.size).toBe(100);
  });
});
