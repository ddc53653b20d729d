/**
 * One JQL request from parsed body to status and body: identify the caller, run a single query or a
 * multi-query under the gate, attach diagnostics (PROTOCOL.md 8) and render the requested shape.
 * Independent of fastify so that PUT (multipart) and POST share it.
 */
import type { JsonValue, SqlTrace, SystemInfo } from '../../shared/protocol.ts';
import type { Credentials } from '../auth/identify.ts';
import { ADMIN_ROLE, type AuthUser } from '../auth/user.ts';
import type { CookieChange, RequestContext, ServerState, UploadedFile } from '../context.ts';
import type { StatementCache } from '../db/database.ts';
import { SqlSession, round } from '../db/sql-session.ts';
import { JqlFailure, statusOf } from '../errors.ts';
import { render, type EnvelopeShape, type Outcome } from '../query/envelope.ts';
import { parseMeta } from '../query/meta.ts';
import { isPlainObject, snakeKey } from '../query/normalize.ts';
import { plansOf } from '../query/plan-cache.ts';
import { shapeOf } from '../query/plan-shape.ts';
import { mayWrite } from './processors.ts';
import { readRootMeta, runMulti, type RootMeta } from './run-multi.ts';
import { errorsOf, runSingle } from './run-single.ts';

export interface RequestInput {
  body: JsonValue;
  infoLevel: 0 | 1 | 2;
  shape: EnvelopeShape;
  credentials: Credentials;
  /** The client's address (the socket's peer), for login throttling. */
  client?: string;
  files?: Map<string, UploadedFile>;
}

/** One JQL request from parsed body to answer, as the routes call it. */
export type RunJql = (input: RequestInput, log: (error: unknown) => void) => Promise<RequestAnswer>;

export interface RequestAnswer {
  status: number;
  body: unknown;
  cookies: CookieChange[];
  /** Headers the handlers set (`Retry-After` of a throttled login). */
  headers: Record<string, string>;
}

export async function runRequest(state: ServerState, input: RequestInput, log: (error: unknown) => void): Promise<RequestAnswer> {
  const started = performance.now();
  const sessions: SqlSession[] = [];
  // Statements and their parameters are the admin's in production (PROTOCOL.md 8): until the caller is
  // known to be one, level 2 is answered as level 1, and nothing is traced.
  let infoLevel = diagnosticsLevel(state, input.infoLevel, null);
  const sessionOn = (statements: StatementCache) => (): SqlSession => {
    const session = new SqlSession(statements, infoLevel === 2);
    sessions.push(session);
    return session;
  };
  const cookies: CookieChange[] = [];
  const replyHeaders: Record<string, string> = {};
  let onlyData = false;
  let outcome: Outcome;
  let status = 200;
  try {
    const body = input.body;
    if (!isPlainObject(body)) throw invalidBody();
    const single = Object.hasOwn(body, '__meta__');
    const root = single ? null : readRootMeta(body);
    const authClass = single ? authClassOf(body.__meta__) : root?.authenticationClass;
    // A request that presents no credential is anonymous: no need to go through identify().
    const presented = Boolean(input.credentials.authorization || input.credentials.cookie || input.credentials.localAdmin);
    const identity: Awaited<ReturnType<ServerState['identity']['identify']>> = presented
      ? await state.identity.identify(input.credentials, authClass)
      : { user: null, credential: {} };
    // `login` ignores presented credentials and issues new ones (PROTOCOL.md 4).
    if (identity.error && single && isLogin(body.__meta__)) identity.error = undefined;
    infoLevel = diagnosticsLevel(state, input.infoLevel, identity.error ? null : identity.user);
    const base: Omit<RequestContext, 'sql'> = {
      state,
      user: identity.user,
      credential: identity.credential,
      authenticationClass: authClass,
      cookies,
      files: input.files ?? new Map(),
      ...(input.client !== undefined ? { client: input.client } : {}),
      replyHeaders,
    };
    if (identity.error) throw identity.error;
    // A request that may write runs through the write gate in one transaction; any other reads
    // committed data through the read connection, whatever another request's transaction holds.
    // A query of a shape a plan answers was parsed as a read before (query/plan-cache.ts): not again.
    const shape = single ? shapeOf(body) : null;
    const writing = shape !== null && plansOf(state).knows(shape) ? false : writes(body, root);
    const access = <T>(fn: (statements: StatementCache) => Promise<T>): Promise<T> => (writing ? state.db.write(fn) : state.db.read(fn));
    if (single || !root) {
      const run = await access((statements) => runSingle({ ...base, sql: sessionOn(statements)() }, body, { log, shape }));
      outcome = run.outcome;
      onlyData = run.meta?.onlyData ?? false;
      if (outcome.errors) status = statusOf(outcome.errors);
    } else {
      const run = await access((statements) => runMulti(base, sessionOn(statements), body, root, { log }));
      outcome = run.outcome;
    }
  } catch (error) {
    const errors = errorsOf(error, false, { log });
    outcome = { payload: null, message: null, extras: null, errors, system: null, intent: null };
    status = statusOf(errors);
  }
  if (infoLevel !== 0) outcome.system = systemInfo(sessions, started, infoLevel);
  return { status, body: render(outcome, input.shape, onlyData), cookies, headers: replyHeaders };
}

/** The diagnostics a caller gets: `sql` only for the role admin in production mode (PROTOCOL.md 8). */
function diagnosticsLevel(state: ServerState, asked: 0 | 1 | 2, user: AuthUser | null): 0 | 1 | 2 {
  return asked === 2 && state.production && !user?.roles.includes(ADMIN_ROLE) ? 1 : asked;
}

/** Whether any query of the body may write (a malformed one is answered as an error, without writing). */
function writes(body: Record<string, JsonValue>, root: RootMeta | null): boolean {
  if (!root) return queryMayWrite(body);
  if (root.atomic) return true;
  return Object.entries(body).some(([name, query]) => name !== '__root_meta__' && queryMayWrite(query));
}

/**
 * Parsed as the query will be run, so the two can never disagree (a re-cased `Intent` key once sent a
 * create down the read connection, with its transaction outside the gate). A query that does not
 * parse writes nothing: it is answered with its error.
 */
function queryMayWrite(query: JsonValue | undefined): boolean {
  if (!isPlainObject(query)) return false;
  try {
    return mayWrite(parseMeta(query.__meta__));
  } catch {
    return false;
  }
}

function invalidBody(): JqlFailure {
  return new JqlFailure([{ code: 'invalid_request', message: 'The body must be a JSON object: a query with __meta__, or named subqueries' }]);
}

function authClassOf(meta: JsonValue | undefined): 'jwt' | 'session' | undefined {
  if (!isPlainObject(meta)) return undefined;
  for (const [key, value] of Object.entries(meta)) {
    if (snakeKey(key) === 'authentication_class' && (value === 'jwt' || value === 'session')) return value;
  }
  return undefined;
}

function isLogin(meta: JsonValue | undefined): boolean {
  return isPlainObject(meta) && meta.namespace === 'system.User' && meta.intent === 'login';
}

function systemInfo(sessions: SqlSession[], started: number, level: 1 | 2): SystemInfo {
  const info: SystemInfo = { queries: sessions.reduce((sum, s) => sum + s.queries, 0), time_ms: round(performance.now() - started) };
  if (level === 2) info.sql = sessions.flatMap((s) => s.traces ?? ([] as SqlTrace[]));
  return info;
}
