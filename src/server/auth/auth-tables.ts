// The server's own auth tables: server-side sessions (revocable cookies), revoked token ids, and each
// user's credential generation (tokens of an older generation are revoked, auth/revocation.ts).
// Times are ISO-8601 UTC text like the workspace's datetimes; that format sorts and compares as text.
import type { Sqlite } from '../db/database.ts';

export function ensureAuthTables(db: Sqlite): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS jql_sessions (
      -- sha256 (hex) of the cookie value: a leaked database does not hand out live cookies
      id TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      revoked_at TEXT
    );
    CREATE INDEX IF NOT EXISTS jql_sessions_expires_at ON jql_sessions (expires_at);
    CREATE INDEX IF NOT EXISTS jql_sessions_user_id ON jql_sessions (user_id);
    -- a row is needed only until the token would expire anyway, so purging by expires_at is safe
    CREATE TABLE IF NOT EXISTS jql_revoked_tokens (
      jti TEXT PRIMARY KEY,
      expires_at TEXT NOT NULL
    );
    -- kept after the user is deleted: a new user given the same id must not inherit old tokens
    CREATE TABLE IF NOT EXISTS jql_credential_generations (
      user_id INTEGER PRIMARY KEY,
      generation INTEGER NOT NULL
    );
  `);
}
