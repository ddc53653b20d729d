// Server-side sessions behind the `jql_session` cookie, and the list of revoked token ids.
// Only the sha256 of a cookie value is stored, so reading the database does not yield a usable cookie.
import { createHash, randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';

export interface NewSession {
  cookieValue: string;
  expiresAt: Date;
}

const sessionId = (cookieValue: string): string => createHash('sha256').update(cookieValue, 'utf8').digest('hex');

export function createSession(db: Database.Database, userId: number, ttlSeconds: number, now = new Date()): NewSession {
  if (!(Number.isFinite(ttlSeconds) && ttlSeconds >= 1)) throw new RangeError(`session lifetime must be at least 1 second, got ${ttlSeconds}`);
  const cookieValue = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + Math.floor(ttlSeconds) * 1000);
  db.prepare('INSERT INTO jql_sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
    sessionId(cookieValue),
    userId,
    now.toISOString(),
    expiresAt.toISOString(),
  );
  return { cookieValue, expiresAt };
}

/** The session's user, or null when the cookie is unknown, expired or revoked. */
export function findSession(db: Database.Database, cookieValue: string, now = new Date()): { userId: number } | null {
  const row = db
    .prepare('SELECT user_id FROM jql_sessions WHERE id = ? AND revoked_at IS NULL AND expires_at > ?')
    .get(sessionId(cookieValue), now.toISOString()) as { user_id: number } | undefined;
  return row ? { userId: row.user_id } : null;
}

/** Revokes the cookie's session; true when a live session was revoked (logout is idempotent either way). */
export function revokeSession(db: Database.Database, cookieValue: string, now = new Date()): boolean {
  const result = db
    .prepare('UPDATE jql_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
    .run(now.toISOString(), sessionId(cookieValue));
  return result.changes > 0;
}

/** Revokes every session of a user (password change, account disabled); returns how many. */
export function revokeUserSessions(db: Database.Database, userId: number, now = new Date()): number {
  return db.prepare('UPDATE jql_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL').run(now.toISOString(), userId)
    .changes;
}

/** Remembers a revoked token id until the token's own expiry; revoking twice is harmless. */
export function revokeJti(db: Database.Database, jti: string, expiresAt: Date): void {
  db.prepare('INSERT OR IGNORE INTO jql_revoked_tokens (jti, expires_at) VALUES (?, ?)').run(jti, expiresAt.toISOString());
}

export function isJtiRevoked(db: Database.Database, jti: string): boolean {
  return db.prepare('SELECT 1 FROM jql_revoked_tokens WHERE jti = ?').get(jti) !== undefined;
}

/**
 * Deletes rows that can no longer matter: expired or revoked sessions (either way findSession answers
 * null, as for an unknown cookie) and revocations of tokens that have expired on their own.
 */
export function purgeExpiredAuth(db: Database.Database, now = new Date()): { sessions: number; revokedTokens: number } {
  const at = now.toISOString();
  const purge = db.transaction(() => ({
    sessions: db.prepare('DELETE FROM jql_sessions WHERE expires_at <= ? OR revoked_at IS NOT NULL').run(at).changes,
    revokedTokens: db.prepare('DELETE FROM jql_revoked_tokens WHERE expires_at <= ?').run(at).changes,
  }));
  return purge();
}
