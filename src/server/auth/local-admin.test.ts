import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningServer } from '../index.ts';
import { tempDir } from '../testing/fixture.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await start({ dataDir: tempDir(), port: 0, localAdmin: true, env: {} });
});
afterAll(() => server.close());

const post = async (body: unknown, token?: string) => {
  const res = await fetch(`${server.url}/jql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

describe('local admin', () => {
  it('hands the starter an admin token without any login', async () => {
    expect(server.localAdminToken).toBeTruthy();
    const me = await post({ __meta__: { namespace: 'system.User', intent: 'verifyAuthentication', schema: 'controller' }, username: null, roles: null }, server.localAdminToken);
    expect(me.body.__payload__).toMatchObject({ username: 'local-admin', roles: ['admin'] });
  });

  it('cannot be signed in to with a password', async () => {
    const res = await post({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username: 'local-admin', password: '' });
    expect(res.status).toBe(401);
  });
});
