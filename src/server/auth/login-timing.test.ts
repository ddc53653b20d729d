// Issue 15 point 7 (docs/protocol.md "Authentication"): a login for an unknown username costs what a wrong password costs,
// because it runs the same scrypt. Counted, not timed: every login derives exactly one key.
import type * as Crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testApp, type TestApp } from '../testing/fixture.ts';

const derived = vi.hoisted(() => ({ calls: [] as Array<{ N?: number; r?: number; p?: number; keylen: number }> }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof Crypto>();
  const scrypt = ((password: unknown, salt: unknown, keylen: number, options: { N?: number; r?: number; p?: number }, callback: unknown) => {
    derived.calls.push({ N: options.N, r: options.r, p: options.p, keylen });
    return (actual.scrypt as (...args: unknown[]) => void)(password, salt, keylen, options, callback);
  }) as typeof actual.scrypt;
  return { ...actual, scrypt, default: { ...actual, scrypt } };
});

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ env: {} });
});
afterAll(() => t.close());

async function derivationsOf(username: string, password: string, remoteAddress: string) {
  derived.calls.length = 0;
  const res = await t.app.inject({
    method: 'POST',
    url: '/jql',
    remoteAddress,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username, password }),
  });
  return { status: res.statusCode, calls: [...derived.calls] };
}

describe('login cost', () => {
  it('runs one scrypt of the stored parameters for an unknown username, as for a wrong password', async () => {
    const wrong = await derivationsOf('agent', 'not-the-password', '10.1.0.1');
    const unknown = await derivationsOf('no-such-user', 'whatever', '10.1.0.2');
    const noPassword = await derivationsOf('local-admin', '', '10.1.0.3');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(noPassword.status).toBe(401);
    expect(wrong.calls).toHaveLength(1);
    expect(unknown.calls).toEqual(wrong.calls);
    expect(noPassword.calls).toEqual(wrong.calls);
  });
});
