/**
 * One JQL request from parsed body to status and body: identify the caller, run a single query or a
 * multi-query under the gate, attach diagnostics (docs/protocol.md "Diagnostics") and render the requested shape.
 * Independent of fastify so that PUT (multipart) and POST share it.
 */
import type { JsonValue, SqlTrace, SystemInfo } from '../../shared/protocol.ts';
import type { Credentials } from '../auth/identify.ts';
import type { PasswordChecks } from '../auth/password-checks.ts';
import { requestedSeeAs, resolveSeeAs } from '../auth/see-as.ts';
import { ADMIN_ROLE, type AuthUser } from '../auth/user.ts';
import type { CookieChange, RequestContext, ServerState, UploadedFile } from '../context.ts';
import type { StatementCache } from '../db/database.ts';
import { SqlSession, round } from '../db/sql-session.ts';
import { retryAfterOf, statusOf, type JqlFailure } from '../errors.ts';
import { AnswerBudget, answerTooLarge, fitsInBytes } from '../query/answer-budget.ts';
import { failedOutcome, render, type EnvelopeShape, type Outcome } from '../query/envelope.ts';
import { parseMeta } from '../query/meta.ts';
import { isPlainObject } from '../query/normalize.ts';
import { plansOf } from '../query/plan-cache.ts';
import { shapeOf } from '../query/plan-shape.ts';
import { serializeAnswer } from '../query/stored-json.ts';
import { mayWrite } from './processors.ts';
import { anonymousCaller, identifyCaller, readRequestShape, type Caller, type RequestShape } from './request-caller.ts';
import { prepareLogins } from '../system/login-query.ts';
import { ROOT_META, runMulti, type RootMeta } from './run-multi.ts';
import { errorsOf, runPlanned, runSingle } from './run-single.ts';

export interface RequestInput {
  body: JsonValue;
  infoLevel: 0 | 1 | 2;
  shape: EnvelopeShape;
  credentials: Credentials;
  /** The client's address (the socket's peer), for login throttling. */
  client?: string;
  /** Its known-client cookie (auth/known-client.ts), for login throttling. */
  knownClient?: string;
  files?: Map<string, UploadedFile>;
  /** Writes one line to the server's log about what the request did as whom (a "see as" read). */
  audit?: (line: string) => void;
  /**
   * The refusal of a request that may write, asked inside the write gate before it runs: the route's
   * `server_busy` while the answers held for slow readers leave no room (http/held-answers.ts). A write
   * that ran is always answered, so it must be refused before, never after its commit.
   */
  refuseWrite?: () => JqlFailure | null;
}

/**
 * One JQL request from parsed body to answer, as the routes call it. The answer is synchronous when
 * no step had to wait (an anonymous read a cached plan answers); await it either way.
 */
export type RunJql = (input: RequestInput, log: (error: unknown) => void) => RequestAnswer | Promise<RequestAnswer>;

export interface RequestAnswer {
  status: number;
  body: unknown;
  cookies: CookieChange[];
  /** Headers the handlers set (`Retry-After` of a throttled login). */
  headers: Record<string, string>;
  /** limits.maxAnswerBytes: the body's JSON text may weigh at most this (query/answer-budget.ts fitsInBytes). */
  maxBytes: number;
  /** The same request answered with `failure` instead (`payload_too_large`, `server_busy`): its cookies, its shape. */
  instead: (failure: JqlFailure) => RequestAnswer;
  /**
   * The body's JSON text, for a request that ran through the write gate: serialized and checked against
   * maxBytes there, before its transaction committed, so that what it wrote is answered as it is; a
   * write is never refused after its commit (413 or 503 would tell the client that nothing happened).
   */
  committed?: string;
}

export function runRequest(state: ServerState, input: RequestInput, log: (error: unknown) => void): RequestAnswer | Promise<RequestAnswer> {
  const run = new RequestRun(state, input, log);
  let shape: RequestShape;
  try {
    shape = readRequestShape(state, input.body);
  } catch (error) {
    return run.failed(error);
  }
  // The shape a cached plan is known by (query/plan-cache.ts), worked out once for both paths.
  // A server without shortcuts has no plans, so no anonymous answer without promises either.
  const planShape = shape.single && state.shortcuts ? shapeOf(shape.body) : null;
  return run.planned(shape, planShape) ?? run.complete(shape, planShape);
}

/** What one request gathers on its way: its SQL sessions, answer budget, cookies, headers, diagnostics level. */
class RequestRun {
  /** When the request started, for `time_ms`: only a request that asked for diagnostics reads the clock. */
  private readonly started: number;
  private readonly sessions: SqlSession[] = [];
  // One budget for the whole answer, whatever number of subqueries share it (docs/protocol.md "Errors").
  private readonly budget: AnswerBudget;
  private readonly cookies: CookieChange[] = [];
  private readonly replyHeaders: Record<string, string> = {};
  // Statements and their parameters are the admin's in production (docs/protocol.md "Diagnostics"): until the caller is
  // known to be one, level 2 is answered as level 1, and nothing is traced.
  private infoLevel: 0 | 1 | 2;
  /** The user an admin runs this request as (auth/see-as.ts): every answer says so. */
  private seenAs: string | null = null;

  private readonly state: ServerState;
  private readonly input: RequestInput;
  private readonly log: (error: unknown) => void;

  constructor(state: ServerState, input: RequestInput, log: (error: unknown) => void) {
    this.state = state;
    this.input = input;
    this.log = log;
    // Rows that cannot pass it are measured only when a later check needs them (a shortcut).
    this.budget = new AnswerBudget(state.ws.limits.maxAnswerBytes, state.shortcuts);
    this.infoLevel = diagnosticsLevel(state, input.infoLevel, null);
    // The level only ever goes from 1 to 2 once the caller is known, never up from 0.
    this.started = this.infoLevel === 0 ? 0 : performance.now();
  }

  /** A new SQL session of this request on `statements`. */
  private session(statements: StatementCache): SqlSession {
    const session = new SqlSession(statements, this.infoLevel === 2, this.budget);
    this.sessions.push(session);
    return session;
  }

  /**
   * What a query of this request runs with. Built as one object literal, without spreads: a planned
   * read makes one per request (issue 29). `files`: a planned read's are NO_FILES (a plan is a
   * model read, which never touches them), any other request's its own Map (a controller gets it).
   */
  private context(caller: Caller, authClass: RequestShape['authClass'], passwordChecks: PasswordChecks | undefined, sql: SqlSession, files = this.input.files ?? new Map<string, UploadedFile>()): RequestContext {
    const { state, input } = this;
    return {
      state,
      sql,
      user: caller.user,
      credential: caller.credential,
      authenticationClass: authClass,
      cookies: this.cookies,
      files,
      client: input.client,
      knownClient: input.knownClient,
      replyHeaders: this.replyHeaders,
      passwordChecks,
    };
  }

  /**
   * The answer without a single await (issue 14.2), or null: an anonymous single read of a shape a
   * plan answered before. Nothing here waits (no credential to look up, no password to hash, a plan
   * runs synchronously on the read connection); a plan that does not take the request (other grants,
   * a value it cannot bind) leaves it to complete(), which runs it in full.
   */
  planned(shape: RequestShape, planShape: string | null): RequestAnswer | null {
    const { state, input } = this;
    if (planShape === null) return null;
    const caller = anonymousCaller(input.credentials);
    if (!caller) return null;
    // No plansOf(state).knows() first: runPlanned's lookup answers that, one cache lookup fewer.
    // A plan only reads: no login, so no password to check.
    const run = state.db.read((statements) => runPlanned(this.context(caller, shape.authClass, undefined, this.session(statements), NO_FILES), planShape, shape.body, { log: this.log }));
    if (!run) {
      this.sessions.pop();
      return null;
    }
    return this.answer(run.outcome, run.outcome.errors ? statusOf(run.outcome.errors) : 200, run.meta?.onlyData ?? false);
  }

  async complete(shape: RequestShape, planShape: string | null): Promise<RequestAnswer> {
    const { state, input, log } = this;
    let onlyData = false;
    let outcome: Outcome;
    let status = 200;
    try {
      const { body, single, root, authClass } = shape;
      const identity = await identifyCaller(state, shape, input.credentials);
      this.infoLevel = diagnosticsLevel(state, input.infoLevel, identity.error ? null : identity.user);
      if (identity.error) throw identity.error;
      const caller = this.seeAs(shape, identity);
      // Logins hash their passwords here, before the gate: the gate holds only their short writes.
      const queries = single ? [body] : Object.entries(body).filter(([name]) => name !== ROOT_META).map(([, query]) => query);
      const passwordChecks = await prepareLogins(state, queries, input.client, input.knownClient);
      // A request that may write runs through the write gate in one transaction; any other reads
      // committed data through the read connection, whatever another request's transaction holds.
      // A query of a shape a plan answers was parsed as a read before (query/plan-cache.ts): not again.
      const writing = planShape !== null && plansOf(state).knows(planShape) ? false : writes(body, root);
      // (A see-as request never gets here as a write: resolveSeeAs refused it.) A write is authorized as its caller stands when it runs, not when it queued: a commit ahead of
      // it in the gate may have taken a role away or disabled the account (issue 29.5).
      // `contextOn` makes the context of one query, with a new SQL session on the access's statements.
      const access = <T>(fn: (contextOn: () => RequestContext) => Promise<T>): Promise<T> =>
        writing
          ? state.db.write((statements) => {
              // Refused before it runs, never after its commit (http/held-answers.ts `refuseWrite`).
              const refusal = input.refuseWrite?.() ?? null;
              if (refusal) throw refusal;
              const as = callerAsCommitted(state, identity);
              return fn(() => this.context(as, authClass, passwordChecks, this.session(statements)));
            })
          : state.db.read((statements) => fn(() => this.context(caller, authClass, passwordChecks, this.session(statements))));
      const run = async (contextOn: () => RequestContext): Promise<{ outcome: Outcome; status: number; onlyData: boolean }> => {
        if (single || !root) {
          const one = await runSingle(contextOn(), body, { log, shape: planShape });
          return { outcome: one.outcome, status: one.outcome.errors ? statusOf(one.outcome.errors) : 200, onlyData: one.meta?.onlyData ?? false };
        }
        return { outcome: (await runMulti(state, contextOn, body, root, { log })).outcome, status: 200, onlyData: false };
      };
      if (writing) {
        return await access(async (contextOn) => {
          const ran = await run(contextOn);
          // Inside the gate, before the commit: an answer past the limit undoes the writes it reports
          // (a multi-query's reads can fit the row count while their envelopes do not).
          const answer = this.answer(ran.outcome, ran.status, ran.onlyData);
          const text = serializeAnswer(answer.body);
          if (!fitsInBytes(text, answer.maxBytes)) throw answerTooLarge(answer.maxBytes);
          return { ...answer, committed: text };
        });
      }
      ({ outcome, status, onlyData } = await access(run));
    } catch (error) {
      return this.failed(error);
    }
    return this.answer(outcome, status, onlyData);
  }

  /** The caller the request runs as: the identified one, or the user an admin asked to see as. */
  private seeAs(shape: RequestShape, identity: Caller): Caller {
    const asked = requestedSeeAs(shape.body, shape.single);
    if (!asked) return identity;
    const user = resolveSeeAs(this.state, identity.user, asked, writes(shape.body, shape.root));
    this.seenAs = user.username;
    this.input.audit?.(`seeAs: ${identity.user?.username ?? '?'} (id ${identity.user?.id ?? '?'}) read as ${user.username} (id ${user.id})`);
    // The other user's grants, and none of the admin's credentials: nothing here can log anyone out.
    return { user, credential: {} };
  }

  failed(error: unknown): RequestAnswer {
    const errors = errorsOf(error, false, { log: this.log });
    return this.answer(failedOutcome(errors), statusOf(errors), false);
  }

  private answer(outcome: Outcome, status: number, onlyData: boolean): RequestAnswer {
    // A refusal that waiting cures (a lock another process holds, a full disk) says how long to wait.
    const retryAfter = outcome.errors && status === 503 ? retryAfterOf(outcome.errors) : null;
    if (retryAfter !== null) this.replyHeaders['Retry-After'] = retryAfter;
    if (this.infoLevel !== 0) outcome.system = systemInfo(this.sessions, this.started, this.infoLevel);
    if (this.seenAs !== null) outcome.extras = { ...(outcome.extras ?? {}), seenAs: this.seenAs };
    return {
      status,
      body: render(outcome, this.input.shape, onlyData),
      cookies: this.cookies,
      headers: this.replyHeaders,
      maxBytes: this.state.ws.limits.maxAnswerBytes,
      instead: (failure) => ({ ...this.failed(failure), maxBytes: Number.POSITIVE_INFINITY }),
    };
  }
}

/** The file parts of a planned read: a model read never reads or adds any (RequestRun.context). */
const NO_FILES = new Map<string, UploadedFile>();

/** The diagnostics a caller gets: `sql` only for the role admin in production mode (docs/protocol.md "Diagnostics"). */
function diagnosticsLevel(state: ServerState, asked: 0 | 1 | 2, user: AuthUser | null): 0 | 1 | 2 {
  return asked === 2 && state.production && !user?.roles.includes(ADMIN_ROLE) ? 1 : asked;
}

/**
 * The caller read again inside the write gate, against what is committed now: the credential still
 * valid, the account still active, its roles as they are. Throws the refusal as identify() would.
 */
function callerAsCommitted(state: ServerState, caller: Caller): Caller {
  if (!caller.proof) return caller;
  const now = state.identity.recheck(caller.proof);
  if (now.error) throw now.error;
  return { ...caller, user: now.user };
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
