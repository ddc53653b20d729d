// Issue 15 point 5 (docs/protocol.md "Authentication"): a password change, a deactivation or a deletion revokes every token
// and session issued to the user before it, over real HTTP; a change that rolls back revokes nothing.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningServer } from '../index.ts';
import { tempDir } from '../testing/fixture.ts';

let server: RunningServer;
let dataDir: string;
let admin: string;
beforeAll(async () => {
  dataDir = tempDir();
  server = await start({ dataDir, port: 0, env: { JQL_ADMIN: 'boss:boss-password' } });
  admin = await tokenOf('boss', 'boss-password');
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function post(body: unknown, credential: { token?: string; cookie?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (credential.token) headers.authorization = `Bearer ${credential.token}`;
  if (credential.cookie) headers.cookie = credential.cookie;
  const response = await fetch(`${server.url}/jql`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any, setCookie: response.headers.getSetCookie() };
}

const login = (username: string, password: string, authenticationClass?: 'session') =>
  post({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller', ...(authenticationClass ? { authenticationClass } : {}) }, username, password });

async function tokenOf(username: string, password: string): Promise<string> {
  const res = await login(username, password);
  if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  return res.body.__payload__.token as string;
}

async function sessionOf(username: string, password: string): Promise<string> {
  const res = await login(username, password, 'session');
  return (res.setCookie.find((c) => c.startsWith('jql_session=')) as string).split(';')[0] as string;
}

const whoAmI = (credential: { token?: string; cookie?: string }) =>
  post({ __meta__: { namespace: 'system.User', intent: 'verifyAuthentication', schema: 'controller' }, username: null }, credential);

let serial = 0;
/** A user of its own with a JWT and a session cookie, both issued before the change under test. */
async function signedInUser(): Promise<{ id: number; username: string; token: string; cookie: string }> {
  const username = `member${++serial}`;
  const created = await post({ __meta__: { namespace: 'system.User', intent: 'create' }, username, password: 'first-password', roles: ['agent'] }, { token: admin });
  expect(created.status).toBe(200);
  const user = { id: created.body.__payload__.id as number, username, token: await tokenOf(username, 'first-password'), cookie: await sessionOf(username, 'first-password') };
  expect((await whoAmI({ token: user.token })).status).toBe(200);
  expect((await whoAmI({ cookie: user.cookie })).status).toBe(200);
  return user;
}

const update = (id: number, data: Record<string, unknown>) => post({ __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id } }, ...data }, { token: admin });

async function expectRevoked(user: { token: string; cookie: string }) {
  for (const credential of [{ token: user.token }, { cookie: user.cookie }]) {
    const res = await whoAmI(credential);
    expect(res.status, JSON.stringify(credential)).toBe(401);
    expect(res.body.__errors__[0].code).toBe('unauthenticated');
  }
}

describe('revocation of what a user was issued', () => {
  it('a password change revokes the JWT and the session cookie; the new password signs in', async () => {
    const user = await signedInUser();
    expect((await update(user.id, { password: 'second-password' })).status).toBe(200);
    await expectRevoked(user);
    const fresh = await tokenOf(user.username, 'second-password');
    expect((await whoAmI({ token: fresh })).body.__payload__).toMatchObject({ username: user.username });
  });

  it('setting is_active false revokes both, and they stay revoked after the user is active again', async () => {
    const user = await signedInUser();
    expect((await update(user.id, { is_active: false })).status).toBe(200);
    await expectRevoked(user);
    expect((await update(user.id, { is_active: true })).status).toBe(200);
    await expectRevoked(user);
    expect((await whoAmI({ token: await tokenOf(user.username, 'first-password') })).status).toBe(200);
  });

  it('deleting the user revokes both', async () => {
    const user = await signedInUser();
    const removed = await post({ __meta__: { namespace: 'system.User', intent: 'delete', uniqueObject: { id: user.id } } }, { token: admin });
    expect(removed.status).toBe(200);
    await expectRevoked(user);
  });

  it('a change of roles or name revokes nothing', async () => {
    const user = await signedInUser();
    expect((await update(user.id, { roles: ['viewer'], first_name: 'Renamed' })).status).toBe(200);
    expect((await whoAmI({ token: user.token })).status).toBe(200);
    expect((await whoAmI({ cookie: user.cookie })).status).toBe(200);
  });

  it('a password change inside an atomic multi-query that rolls back revokes nothing', async () => {
    const user = await signedInUser();
    const multi = await post(
      {
        __root_meta__: { atomic: true },
        password: { __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: user.id } }, password: 'never-committed' },
        deactivate: { __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: user.id } }, is_active: false },
        fails: { __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: 987654 } }, first_name: 'nobody' },
      },
      { token: admin },
    );
    expect(multi.body.__payload__.password.errors[0].code).toBe('rolled_back');
    expect(multi.body.__payload__.fails.errors[0].code).toBe('not_found');
    expect((await whoAmI({ token: user.token })).status).toBe(200);
    expect((await whoAmI({ cookie: user.cookie })).status).toBe(200);
    expect((await login(user.username, 'first-password')).status).toBe(200);
  });
});
