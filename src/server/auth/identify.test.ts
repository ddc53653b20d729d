import { memoryDatabase } from '../testing/sqlite.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ensureAuthTables } from './auth-tables.ts';
import { check, identify } from './identify.ts';
import { credentialGeneration, revokeUserCredentials } from './revocation.ts';
import type { IdentifyDeps } from './identify.ts';
import { createSession, findSession, isJtiRevoked, revokeJti, revokeSession } from './sessions.ts';
import type { SqlRunner } from '../db/sql-session.ts';
import { issueToken } from './tokens.ts';
import type { AuthUser } from './user.ts';

const secret = Buffer.from('identify-test-secret-0123456789ab');
const alice: AuthUser = { id: 1, username: 'alice', roles: ['agent'], isActive: true };
const bob: AuthUser = { id: 2, username: 'bob', roles: [], isActive: true };
const carol: AuthUser = { id: 3, username: 'carol', roles: [], isActive: false };

describe('identify', () => {
  let deps: IdentifyDeps;
  let sql: SqlRunner;
  let token: string;
  let cookie: string;
  beforeEach(async () => {
    sql = memoryDatabase(ensureAuthTables).sql;
    const users = new Map([alice, bob, carol].map((u) => [u.id, u]));
    deps = {
      secret,
      isJtiRevoked: (jti) => isJtiRevoked(sql, jti),
      findSession: (value) => findSession(sql, value),
      credentialGeneration: (userId) => credentialGeneration(sql, userId),
      loadUser: (id) => users.get(id) ?? null,
      localAdmin: (value) => (value === 'this-start' ? alice.id : null),
    };
    token = (await issueToken(secret, alice, 600)).token;
    cookie = createSession(sql, bob.id, 600).cookieValue;
  });
  afterEach(() => vi.useRealTimers());

  const bearer = (t: string) => `Bearer ${t}`;
  const unauthenticated = { error: 'unauthenticated', message: expect.any(String) };

  describe('nothing presented', () => {
    it.each([['jwt'], ['session'], [undefined]] as const)('is anonymous with class %s', async (authClass) => {
      expect(await identify({}, authClass, deps)).toMatchObject({ user: null });
    });

    it('treats an empty cookie or ?token= as absent', async () => {
      expect(await identify({ cookie: '', queryToken: '' }, undefined, deps)).toMatchObject({ user: null });
    });

    it('ignores another Authorization scheme', async () => {
      expect(await identify({ authorization: 'Basic YWxpY2U6cHc=' }, 'jwt', deps)).toMatchObject({ user: null });
    });
  });

  describe('class jwt', () => {
    it('identifies a Bearer token (scheme case-insensitive)', async () => {
      expect(await identify({ authorization: bearer(token) }, 'jwt', deps)).toMatchObject({ user: alice });
      expect(await identify({ authorization: `bearer  ${token}` }, 'jwt', deps)).toMatchObject({ user: alice });
    });

    it('identifies ?token= (streams)', async () => {
      expect(await identify({ queryToken: token }, 'jwt', deps)).toMatchObject({ user: alice });
    });

    it('prefers the header over ?token=', async () => {
      expect(await identify({ authorization: bearer(token), queryToken: 'bad' }, 'jwt', deps)).toMatchObject({ user: alice });
    });

    it('ignores the session cookie', async () => {
      expect(await identify({ cookie }, 'jwt', deps)).toMatchObject({ user: null });
      expect(await identify({ cookie: 'bogus' }, 'jwt', deps)).toMatchObject({ user: null });
    });

    it('refuses a token signed with another secret', async () => {
      const forged = (await issueToken(Buffer.from('not-the-server-secret-0123456789'), alice, 600)).token;
      expect(await identify({ authorization: bearer(forged) }, 'jwt', deps)).toEqual(unauthenticated);
    });

    it('refuses an expired token', async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 601_000 });
      expect(await identify({ authorization: bearer(token) }, 'jwt', deps)).toEqual({
        error: 'unauthenticated',
        message: 'The token has expired.',
      });
    });

    it('refuses a revoked token', async () => {
      const issued = await issueToken(secret, alice, 600);
      revokeJti(sql, issued.jti, issued.expiresAt);
      expect(await identify({ authorization: bearer(issued.token) }, 'jwt', deps)).toEqual({
        error: 'unauthenticated',
        message: 'The token has been revoked.',
      });
    });

    it('refuses a malformed token, and an empty Bearer', async () => {
      expect(await identify({ authorization: 'Bearer nope' }, 'jwt', deps)).toEqual(unauthenticated);
      expect(await identify({ authorization: 'Bearer' }, 'jwt', deps)).toEqual(unauthenticated);
      expect(await identify({ queryToken: 'nope' }, 'jwt', deps)).toEqual(unauthenticated);
    });

    it('refuses a good token whose user is gone or disabled', async () => {
      const ghost = (await issueToken(secret, { id: 99 }, 600)).token;
      const disabled = (await issueToken(secret, carol, 600)).token;
      expect(await identify({ authorization: bearer(ghost) }, 'jwt', deps)).toEqual(unauthenticated);
      expect(await identify({ authorization: bearer(disabled) }, 'jwt', deps)).toEqual(unauthenticated);
    });
  });

  describe('class session', () => {
    it('identifies the cookie', async () => {
      expect(await identify({ cookie }, 'session', deps)).toMatchObject({ user: bob });
    });

    it('ignores a Bearer token and ?token=, good or bad', async () => {
      expect(await identify({ authorization: bearer(token) }, 'session', deps)).toMatchObject({ user: null });
      expect(await identify({ authorization: 'Bearer bad', queryToken: 'bad' }, 'session', deps)).toMatchObject({ user: null });
      expect(await identify({ authorization: 'Bearer bad', cookie }, 'session', deps)).toMatchObject({ user: bob });
    });

    it('refuses an unknown cookie', async () => {
      expect(await identify({ cookie: 'unknown' }, 'session', deps)).toEqual(unauthenticated);
    });

    it('refuses a revoked session', async () => {
      revokeSession(sql, cookie);
      expect(await identify({ cookie }, 'session', deps)).toEqual(unauthenticated);
    });

    it('refuses an expired session', async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 601_000 });
      expect(await identify({ cookie }, 'session', deps)).toEqual(unauthenticated);
    });

    it('refuses a session whose user is disabled or gone', async () => {
      const disabled = createSession(sql, carol.id, 600).cookieValue;
      const ghost = createSession(sql, 99, 600).cookieValue;
      expect(await identify({ cookie: disabled }, 'session', deps)).toEqual(unauthenticated);
      expect(await identify({ cookie: ghost }, 'session', deps)).toEqual(unauthenticated);
    });
  });

  describe('no class', () => {
    it('accepts either credential', async () => {
      expect(await identify({ authorization: bearer(token) }, undefined, deps)).toMatchObject({ user: alice });
      expect(await identify({ queryToken: token }, undefined, deps)).toMatchObject({ user: alice });
      expect(await identify({ cookie }, undefined, deps)).toMatchObject({ user: bob });
    });

    it('lets the token win over the cookie, so a stale cookie does not break a good token', async () => {
      expect(await identify({ authorization: bearer(token), cookie: 'stale' }, undefined, deps)).toMatchObject({ user: alice });
    });

    it('refuses a bad token even when a good cookie comes with it', async () => {
      expect(await identify({ authorization: 'Bearer bad', cookie }, undefined, deps)).toEqual(unauthenticated);
    });

    it('refuses a bad cookie when no token is presented', async () => {
      expect(await identify({ cookie: 'unknown' }, undefined, deps)).toEqual(unauthenticated);
    });
  });

  describe('revocation by credential generation', () => {
    it('refuses every token issued before the user was revoked, and accepts one issued after', async () => {
      const before = (await issueToken(secret, { id: alice.id, generation: credentialGeneration(sql, alice.id) }, 600)).token;
      revokeUserCredentials(sql, alice.id);
      expect(await identify({ authorization: bearer(before) }, 'jwt', deps)).toEqual(unauthenticated);
      const after = (await issueToken(secret, { id: alice.id, generation: credentialGeneration(sql, alice.id) }, 600)).token;
      expect(await identify({ authorization: bearer(after) }, 'jwt', deps)).toMatchObject({ user: alice });
    });

    it('revokes the sessions too', async () => {
      const session = createSession(sql, alice.id, 600).cookieValue;
      revokeUserCredentials(sql, alice.id);
      expect(await identify({ cookie: session }, undefined, deps)).toEqual(unauthenticated);
    });
  });

  describe('the local admin cookie', () => {
    it("identifies this start's cookie, after any token or session", async () => {
      expect(await identify({ localAdmin: 'this-start' }, undefined, deps)).toMatchObject({ user: alice, proof: { kind: 'local-admin' } });
      expect(await identify({ localAdmin: 'this-start', cookie }, undefined, deps)).toMatchObject({ user: bob });
    });

    it("refuses an earlier start's cookie", async () => {
      expect(await identify({ localAdmin: 'earlier-start' }, undefined, deps)).toEqual(unauthenticated);
    });
  });

  describe('check', () => {
    it('answers the user as the data says now, for a credential verified earlier', async () => {
      const identity = await identify({ cookie }, undefined, deps);
      if (!('proof' in identity) || !identity.proof) throw new Error('no proof');
      expect(check(identity.proof, deps)).toMatchObject({ user: bob });
      revokeSession(sql, cookie);
      expect(check(identity.proof, deps)).toEqual(unauthenticated);
    });
  });
});
