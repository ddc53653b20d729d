// Who is calling (PROTOCOL.md 4): reads the credential the authentication class allows, and refuses a
// credential that is presented but bad instead of falling back to anonymous, so clients learn of it.
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
}

/** What identify() reads: committed data only (the server's read connection). */
export interface IdentifyDeps {
  secret: Uint8Array;
  isJtiRevoked(jti: string): boolean;
  /** The live session behind a cookie value, or null. */
  findSession(cookieValue: string): { userId: number } | null;
  loadUser(id: number): AuthUser | null | Promise<AuthUser | null>;
}

export type Identity = { user: AuthUser | null } | { error: 'unauthenticated'; message: string };

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

export async function identify(
  input: Credentials,
  authClass: AuthenticationClass | undefined,
  deps: IdentifyDeps,
): Promise<Identity> {
  const token = authClass === 'session' ? undefined : bearerToken(input);
  const cookie = authClass === 'jwt' ? undefined : input.cookie || undefined;
  // With no class and both present, the explicit header wins over the ambient cookie: a browser may
  // still send a stale cookie, which must not break requests that carry a good token.
  let userId: number;
  if (token !== undefined) {
    try {
      ({ userId } = await verifyToken(deps.secret, token, (jti) => deps.isJtiRevoked(jti)));
    } catch (err) {
      if (err instanceof AuthError) return failed(err.message);
      throw err;
    }
  } else if (cookie !== undefined) {
    const session = deps.findSession(cookie);
    if (!session) return failed('The session is unknown, expired or revoked.');
    userId = session.userId;
  } else {
    return { user: null };
  }
  const user = await deps.loadUser(userId);
  if (!user || !user.isActive) return failed('The account of this credential does not exist or is disabled.');
  return { user };
}
