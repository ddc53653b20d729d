/**
 * The first users (docs/workspace.md): `JQL_ADMIN=username:password` makes sure that user exists with the
 * role `admin`. An existing user keeps its password and gains the role.
 */
import type { Database } from '../db/database.ts';
import { untracked } from '../db/sql-session.ts';
import { hashPassword } from './password.ts';

export function parseAdminSpec(spec: string): { username: string; password: string } {
  const colon = spec.indexOf(':');
  if (colon <= 0 || colon === spec.length - 1) throw new Error('JQL_ADMIN must be "username:password"');
  return { username: spec.slice(0, colon), password: spec.slice(colon + 1) };
}

export async function ensureUser(db: Database, username: string, password: string | null, roles: string[]): Promise<'created' | 'updated'> {
  // Hashed before the write, so the write gate is never held across the hash.
  const hash = password === null ? null : await hashPassword(password);
  return db.write((statements) => {
    const sql = untracked(statements);
    const existing = sql.get('SELECT "id", "roles" FROM "system.User" WHERE "username" = ?', [username]) as { id: number; roles: string | null } | undefined;
    if (existing) {
      const merged = [...new Set([...safeRoles(existing.roles), ...roles])];
      sql.run('UPDATE "system.User" SET "roles" = ? WHERE "id" = ?', [JSON.stringify(merged), existing.id]);
      return 'updated';
    }
    sql.run('INSERT INTO "system.User" ("username", "password", "roles", "is_active", "created_at") VALUES (?, ?, ?, 1, ?)', [
      username,
      hash,
      JSON.stringify(roles),
      new Date().toISOString(),
    ]);
    return 'created';
  });
}

function safeRoles(text: string | null): string[] {
  try {
    const parsed: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}
