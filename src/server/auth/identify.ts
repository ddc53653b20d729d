// Who is calling (docs/protocol.md "Authentication"): reads the credential the authentication class allows, and refuses a
// credential that is presented but bad instead of falling back to anonymous, so clients learn of it.
//
// Two steps: `verify` checks what never changes (a token's signature, asynchronously), `check` what
// may change at any commit (revocations, the user's credential generation, roles, is_active), on
// committed data and synchronously. The stream connections run `check` again, without `verify`, the
// moment a user changes, so a subscription follows a logout or a role change before the next event.
import type { AuthenticationClass } from '../../shared/protocol.ts';
import { AuthError } from './auth-error.ts';
import { verifyToken } from './tokens.ts';
import type { AuthUser } from './user.ts';

export interface Credentials {
  /** The raw `Authorization` header. */
  authorization?: string;
  /** The `jql_session` cookie's value. */
  cookie?: string;
  /** `?token=` on the stream route, where browsers cannot set headers. */
  queryToken?: string;
  /**
   * The local admin's cookie and page secret, joined (browser mode, auth/local-admin.ts
   * localAdminProof), present only when the request carries both and may carry them: a loopback peer,
   * a loopback Host with the server's port, no foreign Origin (http/local-admin-request.ts).
   */
  localAdmin?: string;
}

/** What identify() reads: committed data only (the server's read connection). */
export interface IdentifyDeps {
  secret: Uint8Array;
  isJtiRevoked(jti: string): boolean;
  /** The live session behind a cookie value, or null. */
  findSession(cookieValue: string): { userId: number } | null;
  /** The user's credential generation: tokens of an older one were issued before a revocation. */
  credentialGeneration(userId: number): number;
  loadUser(id: number): AuthUser | null;
  /** The local admin's user id when the presented cookie and page secret are this start's, else null. */
  localAdmin?(proof: string): number | null;
}

/** A verified credential, to be checked again against the data as it changes. */
export type CredentialProof =
  | { kind: 'token'; userId: number; jti: string; exp: number; generation: number }
  | { kind: 'session'; cookie: string }
  | { kind: 'local-admin'; userId: number };

export type Identity = { user: AuthUser | null; proof?: CredentialProof } | { error: 'unauthenticated'; message: string };

const failed = (message: string): Identity => ({ error: 'unauthenticated', message });

/**
 * The bearer token presented, if any. Another scheme (e.g. a proxy's Basic) is not a JQL credential
 * and is ignored; `Bearer` with nothing after it is presented and malformed (an empty string).
 */
function bearerToken(input: Credentials): string | undefined {
  const match = /^\s*bearer(?:\s+(.*))?$/i.exec(input.authorization ?? '');
  if (match) return (match[1] ?? '').trim();
  // An empty `?token=` or cookie is what a client sends when it has nothing: treat it as absent.
  return input.queryToken || undefined;
}

export async function identify(input: Credentials, authClass: AuthenticationClass | undefined, deps: IdentifyDeps): Promise<Identity> {
  const verified = await verify(input, authClass, deps);
  if (verified === null || 'error' in verified) return verified ?? { user: null };
  return check(verified, deps);
}

/**
 * The credential presented, verified as far as data changes cannot affect it; null when none is.
 * With no class and several present, the explicit header wins over the ambient cookies: a browser may
 * still send a stale cookie, which must not break requests that carry a good token. The local
 * admin's cookie comes last: signing in as another user in the console takes precedence over it.
 */
export async function verify(input: Credentials, authClass: AuthenticationClass | undefined, deps: IdentifyDeps): Promise<CredentialProof | { error: 'unauthenticated'; message: string } | null> {
  const token = authClass === 'session' ? undefined : bearerToken(input);
  const cookie = authClass === 'jwt' ? undefined : input.cookie || undefined;
  if (token !== undefined) {
    try {
      const { userId, jti, exp, generation } = await verifyToken(deps.secret, token);
      return { kind: 'token', userId, jti, exp, generation };
    } catch (err) {
      if (err instanceof AuthError) return { error: 'unauthenticated', message: err.message };
      throw err;
    }
  }
  if (cookie !== undefined) return { kind: 'session', cookie };
  if (input.localAdmin) {
    const userId = deps.localAdmin?.(input.localAdmin) ?? null;
    if (userId === null) return { error: 'unauthenticated', message: 'This local admin cookie is from an earlier start of the server: open the URL it printed when it started.' };
    return { kind: 'local-admin', userId };
  }
  return null;
}

/** Whether a verified credential still identifies an active user now, and with which roles. */
export function check(proof: CredentialProof, deps: IdentifyDeps): Identity {
  let userId: number;
  switch (proof.kind) {
    case 'token':
      if (proof.exp * 1000 <= Date.now()) return failed('The token has expired.');
      if (deps.isJtiRevoked(proof.jti)) return failed('The token has been revoked.');
      if (deps.credentialGeneration(proof.userId) !== proof.generation) return failed('The token was revoked by a change of the account (password, deactivation or deletion).');
      userId = proof.userId;
      break;
    case 'session': {
      const session = deps.findSession(proof.cookie);
      if (!session) return failed('The session is unknown, expired or revoked.');
      userId = session.userId;
      break;
    }
    case 'local-admin':
      userId = proof.userId;
      break;
  }
  const user = deps.loadUser(userId);
  if (!user || !user.isActive) return failed('The account of this credential does not exist or is disabled.');
  return { user, proof };
}
