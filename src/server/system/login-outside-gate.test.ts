// A login's password hash (scrypt, tens of ms) runs before the request takes the one write gate, so a
// stream of logins (failed ones included: an unknown user costs a full hash too) never stalls the
// server's writes (docs/protocol.md "Authentication"). The hash function is held by the test: a write must complete while
// a login's hash is still pending, which is counted in event-loop turns, not timed.
import type * as Crypto from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { start, type RunningServer } from '../index.ts';
import { tempDir } from '../testing/fixture.ts';

/** scrypt calls whose plaintext is in `hold` wait in `held` until the test releases them. */
const gate = vi.hoisted(() => ({ hold: new Set<string>(), held: [] as Array<{ password: string; release: () => void }> }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof Crypto>();
  const scrypt = ((password: string, ...rest: unknown[]) => {
    const run = () => (actual.scrypt as (...args: unknown[]) => void)(password, ...rest);
    if (gate.hold.has(password)) gate.held.push({ password, release: run });
    else run();
  }) as typeof actual.scrypt;
  return { ...actual, scrypt, default: { ...actual, scrypt } };
});

let server: RunningServer;
let dataDir: string;
let admin: string;
beforeAll(async () => {
  dataDir = tempDir();
  server = await start({ dataDir, port: 0, env: { JQL_ADMIN: 'boss:boss-password' } });
  admin = (await login('boss', 'boss-password')).body.__payload__.token;
});
afterEach(() => {
  gate.hold.clear();
  for (const call of gate.held.splice(0)) call.release();
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function post(body: unknown, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${server.url}/jql`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, setCookie: response.headers.getSetCookie(), body: (await response.json()) as any };
}

const loginQuery = (username: string, password: string, extra: Record<string, unknown> = {}) => ({
  __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller', ...extra },
  username,
  password,
});
const login = (username: string, password: string) => post(loginQuery(username, password));
const createTicket = (title: string) => post({ __meta__: { namespace: 'tickets.Ticket', intent: 'create' }, title, status: 'open' }, admin);

/** Turns of the event loop (each lets I/O in) until `check` holds, or false after `turns` of them. */
async function within(turns: number, check: () => boolean): Promise<boolean> {
  for (let turn = 0; turn < turns; turn++) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return check();
}

/** Tracks whether a promise has settled. */
function watch<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  return { promise, settled: () => done };
}

describe('logins and the write gate', () => {
  it('a write completes while failed logins (a wrong password, an unknown user) are hashing', async () => {
    gate.hold.add('wrong-password').add('any-password');
    const wrong = watch(login('boss', 'wrong-password'));
    const unknown = watch(login('nobody-at-all', 'any-password'));
    expect(await within(2000, () => gate.held.length === 2)).toBe(true);

    const write = watch(createTicket('written while logins hash'));
    // Without the fix the write queues behind the login's transaction and never completes here.
    expect(await within(2000, write.settled)).toBe(true);
    expect((await write.promise).status).toBe(200);
    expect(wrong.settled() || unknown.settled()).toBe(false);

    for (const call of gate.held.splice(0)) call.release();
    expect((await wrong.promise).status).toBe(401);
    expect((await unknown.promise).status).toBe(401);
    expect((await unknown.promise).body.__errors__[0].message).toBe((await wrong.promise).body.__errors__[0].message);
  });

  it('a right password still signs in, with a session row only once the login commits', async () => {
    await post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'held-user', password: 'held-password', roles: ['agent'] }, admin);
    gate.hold.add('held-password');
    const pending = watch(post(loginQuery('held-user', 'held-password', { authenticationClass: 'session' })));
    expect(await within(2000, () => gate.held.length === 1)).toBe(true);
    const write = watch(createTicket('written while a right password hashes'));
    expect(await within(2000, write.settled)).toBe(true);
    for (const call of gate.held.splice(0)) call.release();
    const signedIn = await pending.promise;
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.__payload__.user.username).toBe('held-user');
    expect(signedIn.setCookie.some((cookie) => cookie.startsWith('jql_session='))).toBe(true);
  });

  it('concurrent wrong guesses are judged one at a time: five are answered, the rest are throttled', async () => {
    const guesses = Array.from({ length: 9 }, (_, i) => `guess-${i}`);
    for (const guess of guesses) gate.hold.add(guess);
    const answers = guesses.map((guess) => login('agent', guess));
    // Every guess hashes before the throttle has counted a single failure.
    expect(await within(2000, () => gate.held.length === guesses.length)).toBe(true);
    for (const call of gate.held.splice(0)) call.release();
    const codes = (await Promise.all(answers)).map((answer) => answer.body.__errors__[0].code).sort();
    expect(codes).toEqual([...Array(5).fill('unauthenticated'), ...Array(4).fill('rate_limited')].sort());
    // Even the right password is refused now.
    expect((await login('agent', 'agent-demo')).status).toBe(429);
  });

  it('a password changed while a login hashes is checked again: the old password no longer signs in', async () => {
    const created = await post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'changing', password: 'old-password', roles: ['agent'] }, admin);
    gate.hold.add('old-password');
    const pending = watch(login('changing', 'old-password'));
    expect(await within(2000, () => gate.held.length === 1)).toBe(true);
    gate.hold.clear();
    const change = await post({ __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: created.body.__payload__.id } }, password: 'new-password' }, admin);
    expect(change.status).toBe(200);
    for (const call of gate.held.splice(0)) call.release();
    expect((await pending.promise).status).toBe(401);
    expect((await login('changing', 'new-password')).status).toBe(200);
  });

  it('a login in an atomic multi-query that rolls back issues nothing', async () => {
    const multi = await post({
      __root_meta__: { atomic: true },
      signIn: loginQuery('viewer', 'viewer-demo', { authenticationClass: 'session' }),
      fails: { __meta__: { namespace: 'tickets.Ticket', intent: 'update', uniqueObject: { id: 987654 } }, title: 'nobody' },
    });
    expect(multi.body.__payload__.signIn.errors[0].code).toBe('rolled_back');
    expect(multi.body.__payload__.signIn.data).toBeNull();
    expect(multi.setCookie.some((cookie) => cookie.startsWith('jql_session=') && !cookie.startsWith('jql_session=;'))).toBe(false);
  });

  it('a user created earlier in the same atomic multi-query signs in (its hash is checked inside the request)', async () => {
    const multi = await post(
      {
        __root_meta__: { atomic: true },
        create: { __meta__: { namespace: 'system.User', intent: 'create' }, username: 'same-request', password: 'same-request-pw', roles: ['agent'] },
        signIn: loginQuery('same-request', 'same-request-pw'),
      },
      admin,
    );
    expect(multi.body.__payload__.signIn.errors).toBeNull();
    expect(multi.body.__payload__.signIn.data.user.username).toBe('same-request');
  });
});
