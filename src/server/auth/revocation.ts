/**
 * Revoking everything a user was issued (docs/protocol.md "Authentication"): a password change, a deactivation or a
 * deletion ends every session of the user and every token issued before it. Sessions are rows and
 * are revoked one by one; tokens are not stored, so each carries the user's credential generation
 * (`gen`) and the generation moves on: identify() refuses a token of an older one. Both writes run in
 * the caller's transaction, so a change that rolls back revokes nothing.
 */
import type { SqlRunner } from '../db/sql-session.ts';
import { revokeUserSessions } from './sessions.ts';

/** The generation a token issued now carries (0 for a user never revoked). */
export function credentialGeneration(sql: SqlRunner, userId: number): number {
  const row = sql.get('SELECT generation FROM jql_credential_generations WHERE user_id = ?', [userId]) as { generation: number } | undefined;
  return row?.generation ?? 0;
}

/** Ends every session and token of the user issued so far. */
export function revokeUserCredentials(sql: SqlRunner, userId: number): void {
  revokeUserSessions(sql, userId);
  sql.run(
    `INSERT INTO jql_credential_generations (user_id, generation) VALUES (?, 1)
     ON CONFLICT (user_id) DO UPDATE SET generation = generation + 1`,
    [userId],
  );
}
