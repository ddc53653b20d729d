/**
 * The server's IdentityService: `identify()` over this data directory's secret, sessions and
 * `system.User` table, answering which credential was used so that logout can revoke it.
 */
import type { IdentityService } from '../context.ts';
import type { Sqlite } from '../db/database.ts';
import { JqlFailure } from '../errors.ts';
import { identify } from './identify.ts';
import type { AuthUser } from './user.ts';

export function createIdentityService(db: Sqlite, secret: Uint8Array): IdentityService {
  const loadUser = (id: number): AuthUser | null => loadAuthUser(db, id);
  return {
    async identify(credentials, authClass) {
      const identity = await identify(credentials, authClass, { db, secret, loadUser });
      if ('error' in identity) {
        return { user: null, credential: {}, error: new JqlFailure([{ code: 'unauthenticated', message: identity.message }]) };
      }
      const token = authClass === 'session' ? undefined : bearerOf(credentials.authorization) ?? credentials.queryToken;
      const session = authClass === 'jwt' || token ? undefined : credentials.cookie;
      return { user: identity.user, credential: identity.user ? { token, session } : {} };
    },
  };
}

export function loadAuthUser(db: Sqlite, id: number): AuthUser | null {
  const row = db.prepare('SELECT "id", "username", "roles", "is_active" FROM "system.User" WHERE "id" = ?').get(id) as
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
