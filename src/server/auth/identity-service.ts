/**
 * The server's IdentityService: `identify()` over this data directory's secret, sessions, credential
 * generations and `system.User` table (and this start's local admin cookie), answering which
 * credential was used so that logout can revoke it; `recheck()` for credentials verified earlier; and
 * the after-commit notice that a user changed, which the stream connections follow.
 */
import type { IdentityService } from '../context.ts';
import type { Database } from '../db/database.ts';
import { untracked, type SqlRunner } from '../db/sql-session.ts';
import { JqlFailure } from '../errors.ts';
import { check, identify, type IdentifyDeps } from './identify.ts';
import { isLocalAdminProof, type LocalAdminKeys } from './local-admin.ts';
import { credentialGeneration } from './revocation.ts';
import { findSession, isJtiRevoked } from './sessions.ts';
import type { AuthUser } from './user.ts';

/**
 * Identity reads go through the read connection: a request is never authorized by roles, sessions or
 * revocations that another request's open transaction has written but not committed.
 */
export function createIdentityService(db: Database, secret: Uint8Array, localAdmin: () => LocalAdminKeys | undefined): IdentityService {
  const read = <T>(fn: (sql: SqlRunner) => T): T => db.read((statements) => fn(untracked(statements)));
  const deps: IdentifyDeps = {
    secret,
    isJtiRevoked: (jti) => read((sql) => isJtiRevoked(sql, jti)),
    findSession: (cookie) => read((sql) => findSession(sql, cookie)),
    credentialGeneration: (userId) => read((sql) => credentialGeneration(sql, userId)),
    loadUser: (id) => read((sql) => loadAuthUser(sql, id)),
    localAdmin: (cookie) => {
      const keys = localAdmin();
      return keys && isLocalAdminProof(keys, cookie) ? keys.userId : null;
    },
  };
  const listeners = new Set<(userId: number) => void>();
  const unauthenticated = (message: string) => new JqlFailure([{ code: 'unauthenticated', message }]);
  return {
    async identify(credentials, authClass) {
      const identity = await identify(credentials, authClass, deps);
      if ('error' in identity) return { user: null, credential: {}, error: unauthenticated(identity.message) };
      const token = identity.proof?.kind === 'token' ? (bearerOf(credentials.authorization) ?? credentials.queryToken) : undefined;
      const session = identity.proof?.kind === 'session' ? identity.proof.cookie : undefined;
      return { user: identity.user, credential: identity.user ? { token, session } : {}, proof: identity.proof };
    },
    recheck(proof) {
      const identity = check(proof, deps);
      if ('error' in identity) return { user: null, error: unauthenticated(identity.message) };
      return { user: identity.user as AuthUser };
    },
    userChanged(userId) {
      db.afterCommit(() => {
        for (const listener of listeners) {
          // Listeners report their own failures; one must not keep the others (or the commit's
          // remaining after-commit work) from running.
          try {
            listener(userId);
          } catch {
            /* reported by the listener */
          }
        }
      });
    },
    onUserChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function loadAuthUser(sql: SqlRunner, id: number): AuthUser | null {
  const row = sql.get('SELECT "id", "username", "roles", "is_active" FROM "system.User" WHERE "id" = ?', [id]) as
    | { id: number; username: string; roles: string | null; is_active: number | null }
    | undefined;
  if (!row) return null;
  let roles: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.roles ?? '[]');
    if (Array.isArray(parsed)) roles = parsed.filter((role): role is string => typeof role === 'string');
  } catch {
    roles = [];
  }
  return { id: row.id, username: row.username, roles, isActive: row.is_active !== 0 };
}

function bearerOf(header: string | undefined): string | undefined {
  const match = /^\s*bearer\s+(.+)$/i.exec(header ?? '');
  return match?.[1]?.trim();
}
