/**
 * "See as" (docs/protocol.md "See as"): an admin runs a read as another user, without that user's
 * password, and gets exactly what that user would get. The request names the user in `__meta__.seeAs`
 * (a single query) or `__root_meta__.seeAs` (a multi-query); the caller is checked here, once, and
 * the request then runs with the other user as its caller, so every rule (roles, row scopes,
 * reference paths, hidden fields) is the one that user meets, applied by the same code.
 *
 * Never a write: a request that may write is refused whole, before it runs. Never in production,
 * unless the workspace says `"allowSeeAs": true`.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { ServerState } from '../context.ts';
import { untracked } from '../db/sql-session.ts';
import { JqlFailure, jqlError, type ErrorPath } from '../errors.ts';
import { isPlainObject, snakeKey } from '../query/normalize.ts';
import { ADMIN_ROLE, type AuthUser } from './user.ts';
import { loadAuthUser } from './identity-service.ts';

export interface SeeAsRequest {
  username: string;
  /** Where the request named the user, for the errors. */
  path: ErrorPath;
}

const refuse = (code: 'unauthenticated' | 'forbidden' | 'not_found' | 'invalid_request', message: string, path: ErrorPath): never => {
  throw new JqlFailure([jqlError(code, message, { path })]);
};

/** The `seeAs` of a `__meta__` or `__root_meta__` object, in any spelling of the key, or null. */
function seeAsIn(meta: JsonValue | undefined, at: string): SeeAsRequest | null {
  if (!isPlainObject(meta)) return null;
  for (const key in meta) {
    if (snakeKey(key) !== 'see_as') continue;
    const value = meta[key];
    const path = [at, key];
    if (typeof value !== 'string' || value.length === 0) refuse('invalid_request', 'seeAs must be the username of the user to run the request as', path);
    return { username: value as string, path };
  }
  return null;
}

/**
 * The user a request asks to be seen as, or null. A multi-query names it once, for all its
 * subqueries, in `__root_meta__`; a subquery's own `seeAs` is refused (one request, one caller).
 */
export function requestedSeeAs(body: Record<string, JsonValue>, single: boolean): SeeAsRequest | null {
  if (single) return seeAsIn(body.__meta__, '__meta__');
  for (const [name, query] of Object.entries(body)) {
    if (name === '__root_meta__' || !isPlainObject(query)) continue;
    const inner = seeAsIn(query.__meta__, '__meta__');
    if (inner) refuse('invalid_request', 'A multi-query names the user to see as once, in __root_meta__.seeAs', [name, ...inner.path]);
  }
  return seeAsIn(body.__root_meta__, '__root_meta__');
}

/** Whether this server offers "see as" at all (development, or a workspace that allows it in production). */
export function seeAsOffered(state: Pick<ServerState, 'production' | 'ws'>): boolean {
  return !state.production || state.ws.allowSeeAs === true;
}

/**
 * The user the request runs as: checks that the caller is an admin, the server offers the extension,
 * the request cannot write, and the user exists and is active.
 */
export function resolveSeeAs(state: ServerState, caller: AuthUser | null, asked: SeeAsRequest, writes: boolean): AuthUser {
  if (!caller) return refuse('unauthenticated', 'Sign in as an admin to run a query as another user (seeAs)', asked.path);
  if (!caller.roles.includes(ADMIN_ROLE)) refuse('forbidden', 'Only an admin may run a query as another user (seeAs)', asked.path);
  if (!seeAsOffered(state)) refuse('forbidden', 'This server runs in production mode and its workspace does not allow seeAs ("allowSeeAs": true)', asked.path);
  if (writes) refuse('forbidden', 'seeAs never writes: run a read, or sign in as the user to write', asked.path);
  const user = state.db.read((statements) => {
    const sql = untracked(statements);
    const row = sql.get('SELECT "id" FROM "system.User" WHERE "username" = ?', [asked.username]) as { id: number } | undefined;
    return row ? loadAuthUser(sql, row.id) : null;
  });
  if (!user) return refuse('not_found', `No user "${asked.username}" to see as`, asked.path);
  if (!user.isActive) refuse('forbidden', `User "${asked.username}" is disabled: a disabled user sees nothing`, asked.path);
  return user;
}
