/**
 * The first-message credential of `/jql-streams` (docs/protocol.md "Streams"): `{"type": "auth", "token": …}`.
 * Browsers cannot set headers on a WebSocket, and a `?token=` ends up in logs and in the browser's
 * own console when the socket fails; a message does neither. The answer is `authenticated` with
 * the user, or an `error` whose id is null (the socket stays open and every later subscribe answers
 * `unauthenticated`, as with any bad credential). Later subscribes use that identity.
 */
import type { StreamServerMessage } from '../../shared/streams.ts';
import type { CredentialProof } from '../auth/identify.ts';
import type { AuthUser } from '../context.ts';

/** Who a stream connection acts for. */
export interface Caller {
  user: AuthUser | null;
  /** The presented credential failed. */
  error?: Error;
  /** The verified credential, checked again when the user changes (none for anonymous callers). */
  proof?: CredentialProof;
}

/** A JWT is a few hundred bytes; anything far longer is not one. */
export const MAX_AUTH_TOKEN_LENGTH = 8192;

export function authTokenProblem(token: unknown): string | null {
  if (typeof token !== 'string' || token === '') return '"token" must be the bearer token, a non-empty string';
  if (token.length > MAX_AUTH_TOKEN_LENGTH) return `"token" is longer than ${MAX_AUTH_TOKEN_LENGTH} characters`;
  return null;
}

/** Subscriptions run as the identity they were opened with, so the identity is set before any. */
export const AUTH_AFTER_SUBSCRIBE = 'Send "auth" before the first subscribe: open subscriptions keep the identity they were made with';

/** What the client is told once the token has been checked. */
export function authAnswer(caller: Caller): StreamServerMessage {
  if (caller.user && !caller.error) return { type: 'authenticated', user: { id: caller.user.id, username: caller.user.username } };
  return { type: 'error', id: null, error: { code: 'unauthenticated', message: caller.error?.message ?? 'The token identifies no user' } };
}
