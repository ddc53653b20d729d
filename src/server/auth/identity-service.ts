/**
 * The server's IdentityService: `identify()` over this data directory's secret, sessions and
 * `system.User` table, answering which credential was used so that logout can revoke it.
 */
import type { IdentityService } from '../context.ts';
import type { Database } from '../db/database.ts';
import { untracked, type SqlRunner } from '../db/sql-session.ts';
import { JqlFailure } from '../errors.ts';
import { identify, type IdentifyDeps } from './identify.ts';
import { findSession, isJtiRevoked } from './sessions.ts';
import type { AuthUser } from './user.ts';

/**
 * Identity reads go through the read connection: a request is never authorized by roles, sessions or
 * revocations that another request's open transaction has written but not committed.
 */
export function createIdentityService(db: Database, secret: Uint8Array): IdentityService {
  const read = <T>(fn: (sql: SqlRunner) => T): T => db.read((statements) => fn(untracked(statements)));
  const deps: IdentifyDeps = {
    secret,
    isJtiRevoked: (jti) => read((sql) => isJtiRevoked(sql, jti)),
    findSession: (cookie) => read((sql) => findSession(sql, cookie)),
    loadUser: (id) => read((sql) => loadAuthUser(sql, id)),
  };
  return {
    async identify(credentials, authClass) {
      const identity = await identify(credentials, authClass, deps);
      if ('error' in identity) {
        return { user: null, credential: {}, error: new JqlFailure([{ code: 'unauthenticated', message: identity.message }]) };
      }
      const token = authClass === 'session' ? undefined : bearerOf(credentials.authorization) ?? credentials.queryToken;
      const session = authClass === 'jwt' || token ? undefined : credentials.cookie;
      return { user: identity.user, credential: identity.user ? { token, session } : {} };
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
