/**
 * One JQL request from parsed body to status and body: identify the caller, run a single query or a
 * multi-query under the gate, attach diagnostics (docs/protocol.md "Diagnostics") and render the requested shape.
 * Independent of fastify so that PUT (multipart) and POST share it.
 */
import type { JsonValue, SqlTrace, SystemInfo } from '../../shared/protocol.ts';
import type { Credentials } from '../auth/identify.ts';
import { ADMIN_ROLE, type AuthUser } from '../auth/user.ts';
import type { CookieChange, RequestContext, ServerState, UploadedFile } from '../context.ts';
import type { StatementCache } from '../db/database.ts';
import { SqlSession, round } from '../db/sql-session.ts';
import { statusOf } from '../errors.ts';
import { AnswerBudget } from '../query/answer-budget.ts';
import { failedOutcome, render, type EnvelopeShape, type Outcome } from '../query/envelope.ts';
import { parseMeta } from '../query/meta.ts';
import { isPlainObject } from '../query/normalize.ts';
import { plansOf } from '../query/plan-cache.ts';
import { shapeOf } from '../query/plan-shape.ts';
import { mayWrite } from './processors.ts';
import { identifyCaller, readRequestShape } from './request-caller.ts';
import { prepareLogins } from '../system/login-query.ts';
import { ROOT_META, runMulti, type RootMeta } from './run-multi.ts';
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
  // One budget for the whole answer, whatever number of subqueries share it (docs/protocol.md "Errors").
  const budget = new AnswerBudget(state.ws.limits.maxAnswerBytes);
  // Statements and their parameters are the admin's in production (docs/protocol.md "Diagnostics"): until the caller is
  // known to be one, level 2 is answered as level 1, and nothing is traced.
  let infoLevel = diagnosticsLevel(state, input.infoLevel, null);
  const sessionOn = (statements: StatementCache) => (): SqlSession => {
    const session = new SqlSession(statements, infoLevel === 2, budget);
    sessions.push(session);
    return session;
  };
  const cookies: CookieChange[] = [];
  const replyHeaders: Record<string, string> = {};
  let onlyData = false;
  let outcome: Outcome;
  let status = 200;
  try {
    const shape = readRequestShape(state, input.body);
    const { body, single, root, authClass } = shape;
    const identity = await identifyCaller(state, shape, input.credentials);
    infoLevel = diagnosticsLevel(state, input.infoLevel, identity.error ? null : identity.user);
    if (identity.error) throw identity.error;
    // Logins hash their passwords here, before the gate: the gate holds only their short writes.
    const queries = single ? [body] : Object.entries(body).filter(([name]) => name !== ROOT_META).map(([, query]) => query);
    const passwordChecks = await prepareLogins(state, queries, input.client);
    const base: Omit<RequestContext, 'sql'> = {
      state,
      user: identity.user,
      credential: identity.credential,
      authenticationClass: authClass,
      cookies,
      files: input.files ?? new Map(),
      ...(input.client !== undefined ? { client: input.client } : {}),
      replyHeaders,
      passwordChecks,
    };
    // A request that may write runs through the write gate in one transaction; any other reads
    // committed data through the read connection, whatever another request's transaction holds.
    // A query of a shape a plan answers was parsed as a read before (query/plan-cache.ts): not again.
    const planShape = single ? shapeOf(body) : null;
    const writing = planShape !== null && plansOf(state).knows(planShape) ? false : writes(body, root);
    const access = <T>(fn: (statements: StatementCache) => Promise<T>): Promise<T> => (writing ? state.db.write(fn) : state.db.read(fn));
    if (single || !root) {
      const run = await access((statements) => runSingle({ ...base, sql: sessionOn(statements)() }, body, { log, shape: planShape }));
      outcome = run.outcome;
      onlyData = run.meta?.onlyData ?? false;
      if (outcome.errors) status = statusOf(outcome.errors);
    } else {
      const run = await access((statements) => runMulti(base, sessionOn(statements), body, root, { log }));
      outcome = run.outcome;
    }
  } catch (error) {
    const errors = errorsOf(error, false, { log });
    outcome = failedOutcome(errors);
    status = statusOf(errors);
  }
  if (infoLevel !== 0) outcome.system = systemInfo(sessions, started, infoLevel);
  return { status, body: render(outcome, input.shape, onlyData), cookies, headers: replyHeaders };
}

/** The diagnostics a caller gets: `sql` only for the role admin in production mode (docs/protocol.md "Diagnostics"). */
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

function systemInfo(sessions: SqlSession[], started: number, level: 1 | 2): SystemInfo {
  const info: SystemInfo = { queries: sessions.reduce((sum, s) => sum + s.queries, 0), time_ms: round(performance.now() - started) };
  if (level === 2) info.sql = sessions.flatMap((s) => s.traces ?? ([] as SqlTrace[]));
  return info;
}
