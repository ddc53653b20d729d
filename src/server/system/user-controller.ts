/**
 * The built-in `system.User` controller (docs/protocol.md "Authentication"): `login` issues a token (and with
 * `authenticationClass: "session"` a session cookie), `logout` revokes what the request presented,
 * `verifyAuthentication` answers the signed-in user's requested fields.
 */
import type { JsonObject, JsonValue } from '../../shared/protocol.ts';
import { SESSION_COOKIE } from '../auth/cookies.ts';
import { KNOWN_CLIENT_COOKIE, KNOWN_CLIENT_MAX_AGE_SECONDS, loginClient, newKnownClient } from '../auth/known-client.ts';
import { PasswordChecks } from '../auth/password-checks.ts';
import { credentialGeneration } from '../auth/revocation.ts';
import { createSession, revokeJti, revokeSession } from '../auth/sessions.ts';
import { issueToken, verifyToken } from '../auth/tokens.ts';
import type { ControllerClassLike, RequestContext, ServerState } from '../context.ts';
import type { SqlRunner } from '../db/sql-session.ts';
import { fail } from '../errors.ts';
import { fromStored } from '../workspace/field-codec.ts';
import { findLoginRow, hashToCheck } from './login-query.ts';

/** How long a token or session lives. */
export const CREDENTIAL_TTL_SECONDS = 12 * 3600;

interface Ctx {
  user: RequestContext['user'];
  request: RequestContext;
  data: { retrieveOne(namespace: string, uniqueObject: JsonObject, fields?: JsonObject): Promise<JsonValue> };
}

const WRONG = 'Wrong username or password';

export function userController(state: ServerState): ControllerClassLike {
  const throttle = state.loginThrottle;
  return class UserController {
    static permissions = { login: ['anyone'], logout: ['authenticated'], verifyAuthentication: ['authenticated'] };
    // Logging in and out write (tokens, sessions, the throttle); asking who one is does not.
    static readOnly = ['verifyAuthentication'];

    /**
     * Runs inside the write gate, after the request verified the password against the committed hash
     * (system/login-query.ts): here the throttle, the row as this transaction sees it and the
     * bookkeeping writes, all short. Concurrent logins reach this point one at a time, so the
     * throttle's check and its count never interleave.
     */
    async on_login(ctx: Ctx, args: Record<string, JsonValue>): Promise<{ payload: JsonValue; message: string }> {
      const { username, password } = args;
      if (typeof username !== 'string' || typeof password !== 'string') {
        fail('validation_error', 'login takes a username and a password (strings)', { field: typeof username !== 'string' ? 'username' : 'password', path: [typeof username !== 'string' ? 'username' : 'password'] });
      }
      const client = loginClient(state.secret, ctx.request.client, ctx.request.knownClient, username as string);
      const retryAfter = throttle.retryAfter(client, username as string);
      if (retryAfter > 0) {
        if (ctx.request.replyHeaders) ctx.request.replyHeaders['Retry-After'] = String(retryAfter);
        // Not counted as another failure: the window ends when it would have without this attempt.
        fail('rate_limited', `Too many failed logins for this username from this client; try again in ${retryAfter} s`);
      }
      const sql = ctx.request.sql.untracked;
      const row = findLoginRow(sql, username as string);
      const checks = ctx.request.passwordChecks ?? new PasswordChecks();
      const ok = await checks.verify(password as string, hashToCheck(row));
      if (!row || !ok || row.password === null || row.is_active === 0) {
        throttle.recordFailure(client, username as string);
        fail('unauthenticated', WRONG);
      }
      throttle.recordSuccess(client, username as string);
      const issued = await issueToken(state.secret, { id: row.id, generation: credentialGeneration(sql, row.id) }, CREDENTIAL_TTL_SECONDS);
      if (ctx.request.authenticationClass === 'session') {
        const session = createSession(sql, row.id, CREDENTIAL_TTL_SECONDS);
        ctx.request.cookies.push({ name: SESSION_COOKIE, value: session.cookieValue, maxAgeSeconds: CREDENTIAL_TTL_SECONDS });
      }
      // This client is known from now on: others' wrong guesses for this username do not lock it out.
      if (!client?.startsWith('known:')) ctx.request.cookies.push({ name: KNOWN_CLIENT_COOKIE, value: newKnownClient(state.secret, username as string), maxAgeSeconds: KNOWN_CLIENT_MAX_AGE_SECONDS });
      const user = publicUser(sql, state, row.id);
      return { payload: { token: issued.token, expires_at: issued.expiresAt.toISOString(), user }, message: `Signed in as ${username as string}` };
    }

    async on_logout(ctx: Ctx): Promise<{ payload: null; message: string }> {
      const { token, session } = ctx.request.credential;
      if (session) {
        revokeSession(ctx.request.sql.untracked, session);
        ctx.request.cookies.push({ name: SESSION_COOKIE, value: null, maxAgeSeconds: 0 });
      }
      if (token) {
        const verified = await verifyToken(state.secret, token);
        revokeJti(ctx.request.sql.untracked, verified.jti, new Date(verified.exp * 1000));
      }
      // The user's open streams follow the logout before their next event (docs/protocol.md "Streams").
      if (ctx.user) state.identity.userChanged(ctx.user.id);
      return { payload: null, message: 'Signed out' };
    }

    async on_verify_authentication(ctx: Ctx, args: Record<string, JsonValue>): Promise<{ payload: JsonValue }> {
      const user = ctx.user as NonNullable<Ctx['user']>;
      return { payload: await ctx.data.retrieveOne('system.User', { id: user.id }, args as JsonObject) };
    }
  } as unknown as ControllerClassLike;
}

/** The signed-in user as login answers it: every readable field (never the password). */
function publicUser(sql: SqlRunner, state: ServerState, id: number): JsonObject {
  const model = state.ws.models.get('system.User');
  const readable = model ? [...model.fields.values()].filter((f) => !f.writeOnly && !f.hidden) : [];
  const row = sql.get(`SELECT ${['id', ...readable.map((f) => f.column)].map((c) => `"${c}"`).join(', ')} FROM "system.User" WHERE "id" = ?`, [id]) as Record<string, unknown>;
  const user: JsonObject = { id };
  for (const field of readable) {
    user[field.name] = fromStored(field.type, row[field.column]);
  }
  return user;
}
