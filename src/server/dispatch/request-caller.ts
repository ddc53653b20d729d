/**
 * The first two steps of every JQL request, shared by POST and by PUT's check before it stores a
 * file (docs/protocol.md "Authentication", "Multi-query", "Multipart uploads"): read the body's shape (a single query or named subqueries) and find
 * out who is calling from the presented credentials.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { Credentials } from '../auth/identify.ts';
import type { ServerState } from '../context.ts';
import { JqlFailure } from '../errors.ts';
import { isPlainObject, snakeKey } from '../query/normalize.ts';
import { isLoginQuery } from '../system/login-query.ts';
import { readRootMeta, type RootMeta } from './run-multi.ts';

export interface RequestShape {
  body: Record<string, JsonValue>;
  /** A query with `__meta__` at the root; otherwise named subqueries under `root`. */
  single: boolean;
  root: RootMeta | null;
  authClass?: 'jwt' | 'session';
}

export type Caller = Awaited<ReturnType<ServerState['identity']['identify']>>;

/** Throws a 400 for a body that is neither a query nor a valid multi-query. */
export function readRequestShape(state: ServerState, body: JsonValue): RequestShape {
  if (!isPlainObject(body)) {
    throw new JqlFailure([{ code: 'invalid_request', message: 'The body must be a JSON object: a query with __meta__, or named subqueries' }]);
  }
  const single = Object.hasOwn(body, '__meta__');
  const root = single ? null : readRootMeta(body, state.ws.limits.maxQueriesPerRequest);
  return { body, single, root, authClass: single ? authClassOf(body.__meta__) : root?.authenticationClass };
}

/** A request that presents no credential is anonymous, without going through identify(); else null. */
export function anonymousCaller(credentials: Credentials): Caller | null {
  return credentials.authorization || credentials.cookie || credentials.localAdmin ? null : { user: null, credential: {} };
}

/** The caller, or (in `error`) why the presented credential is refused; no credential is anonymous. */
export async function identifyCaller(state: ServerState, shape: RequestShape, credentials: Credentials): Promise<Caller> {
  const caller: Caller = anonymousCaller(credentials) ?? (await state.identity.identify(credentials, shape.authClass));
  // `login` ignores presented credentials and issues new ones (docs/protocol.md "Authentication").
  if (caller.error && shape.single && isLoginQuery(shape.body)) caller.error = undefined;
  return caller;
}

/**
 * snakeKey only lowercases and inserts underscores, and `authentication_class` holds one: only a key
 * of 19 or 20 characters can name it. The length test spares every other key of every request the
 * key cache's lookup (issue 14.2); the rule that decides stays snakeKey's.
 */
const AUTH_CLASS_KEY_LENGTHS = new Set(['authenticationClass'.length, 'authentication_class'.length]);

function authClassOf(meta: JsonValue | undefined): 'jwt' | 'session' | undefined {
  if (!isPlainObject(meta)) return undefined;
  for (const key in meta) {
    const value = meta[key];
    if (!AUTH_CLASS_KEY_LENGTHS.has(key.length)) continue;
    if (snakeKey(key) === 'authentication_class' && (value === 'jwt' || value === 'session')) return value;
  }
  return undefined;
}
