// Server-side sessions behind the `jql_session` cookie, and the list of revoked token ids.
// Only the sha256 of a cookie value is stored, so reading the database does not yield a usable cookie.
import { createHash, randomBytes } from 'node:crypto';
import type { SqlRunner } from '../db/sql-session.ts';

export interface NewSession {
  cookieValue: string;
  expiresAt: Date;
}

const sessionId = (cookieValue: string): string => createHash('sha256').update(cookieValue, 'utf8').digest('hex');

export function createSession(sql: SqlRunner, userId: number, ttlSeconds: number, now = new Date()): NewSession {
  if (!(Number.isFinite(ttlSeconds) && ttlSeconds >= 1)) throw new RangeError(`session lifetime must be at least 1 second, got ${ttlSeconds}`);
  const cookieValue = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + Math.floor(ttlSeconds) * 1000);
  sql.run('INSERT INTO jql_sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)', [
    sessionId(cookieValue),
    userId,
    now.toISOString(),
    expiresAt.toISOString(),
  ]);
  return { cookieValue, expiresAt };
}

/** The session's user, or null when the cookie is unknown, expired or revoked. */
export function findSession(sql: SqlRunner, cookieValue: string, now = new Date()): { userId: number } | null {
  const row = sql.get('SELECT user_id FROM jql_sessions WHERE id = ? AND revoked_at IS NULL AND expires_at > ?', [sessionId(cookieValue), now.toISOString()]) as
    | { user_id: number }
    | undefined;
  return row ? { userId: row.user_id } : null;
}

/** Revokes the cookie's session; true when a live session was revoked (logout is idempotent either way). */
export function revokeSession(sql: SqlRunner, cookieValue: string, now = new Date()): boolean {
  const result = sql.run('UPDATE jql_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now.toISOString(), sessionId(cookieValue)]);
  return result.changes > 0;
}

/** Revokes every session of a user (password change, account disabled); returns how many. */
export function revokeUserSessions(sql: SqlRunner, userId: number, now = new Date()): number {
  return sql.run('UPDATE jql_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL', [now.toISOString(), userId]).changes;
}

/** Remembers a revoked token id until the token's own expiry; revoking twice is harmless. */
export function revokeJti(sql: SqlRunner, jti: string, expiresAt: Date): void {
  sql.run('INSERT OR IGNORE INTO jql_revoked_tokens (jti, expires_at) VALUES (?, ?)', [jti, expiresAt.toISOString()]);
}

export function isJtiRevoked(sql: SqlRunner, jti: string): boolean {
  return sql.get('SELECT 1 AS revoked FROM jql_revoked_tokens WHERE jti = ?', [jti]) !== undefined;
}

/**
 * Deletes rows that can no longer matter: expired or revoked sessions (either way findSession answers
 * null, as for an unknown cookie) and revocations of tokens that have expired on their own.
 */
export function purgeExpiredAuth(sql: SqlRunner, now = new Date()): { sessions: number; revokedTokens: number } {
  const at = now.toISOString();
  return {
    sessions: sql.run('DELETE FROM jql_sessions WHERE expires_at <= ? OR revoked_at IS NOT NULL', [at]).changes,
    revokedTokens: sql.run('DELETE FROM jql_revoked_tokens WHERE expires_at <= ?', [at]).changes,
  };
}
