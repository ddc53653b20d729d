/**
 * A `system.User` `login` query as the request runner sees it before anything runs (docs/protocol.md "Authentication"):
 * which queries of a body are logins, and the verification of their passwords before the request
 * takes the write gate (auth/password-checks.ts says why), with the row both sides read.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import { loginClient } from '../auth/known-client.ts';
import { PasswordChecks } from '../auth/password-checks.ts';
import { PLACEHOLDER_HASH } from '../auth/password.ts';
import type { ServerState } from '../context.ts';
import { untracked, type SqlRunner } from '../db/sql-session.ts';
import { parseMeta } from '../query/meta.ts';
import { isPlainObject, mapKeys, snakeKey } from '../query/normalize.ts';

export const USER_CONTROLLER = 'system.User';

export interface LoginRow {
  id: number;
  password: string | null;
  is_active: number | null;
}

/** Whether a query is a login, read as the query will be run; a malformed one is not (it fails). */
export function isLoginQuery(query: JsonValue | undefined): boolean {
  if (!isPlainObject(query)) return false;
  try {
    const meta = parseMeta(query.__meta__);
    return meta.schema === 'controller' && meta.namespace === USER_CONTROLLER && meta.intent === 'login';
  } catch {
    return false;
  }
}

/** The user a login names, with the hash it is checked against. */
export function findLoginRow(sql: SqlRunner, username: string): LoginRow | undefined {
  return sql.get('SELECT "id", "password", "is_active" FROM "system.User" WHERE "username" = ?', [username]) as LoginRow | undefined;
}

/**
 * The hash a login verifies a password against: a real hash even for an unknown user (or one without
 * a password), so timing does not tell which part was wrong.
 */
export function hashToCheck(row: LoginRow | undefined): string {
  return row?.password ?? PLACEHOLDER_HASH;
}

/**
 * Before the gate: verifies the password of each login among `queries` against the committed hash,
 * one after another (a multi-query of many logins takes one hash's memory at a time). A pair the
 * throttle refuses is not hashed: its login is refused without one.
 */
export async function prepareLogins(state: ServerState, queries: Iterable<JsonValue | undefined>, address: string | undefined, knownClient: string | undefined): Promise<PasswordChecks> {
  const checks = new PasswordChecks();
  for (const query of queries) {
    if (!isLoginQuery(query)) continue;
    // Keys as the controller receives them (processors/controller: snake_case).
    const args = mapKeys(query as Record<string, JsonValue>, snakeKey);
    const { username, password } = args;
    if (typeof username !== 'string' || typeof password !== 'string') continue;
    if (state.loginThrottle.retryAfter(loginClient(state.secret, address, knownClient, username), username) > 0) continue;
    const row = state.db.read((statements) => findLoginRow(untracked(statements), username));
    await checks.prepare(password, hashToCheck(row));
  }
  return checks;
}
