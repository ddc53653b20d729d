/**
 * Multi-query (docs/protocol.md "Multi-query"): named subqueries in document order, each answered on its own under its
 * name. With `__root_meta__.atomic` they share one transaction and any error undoes all of them.
 */
import type { JsonValue, SubqueryResult } from '../../shared/protocol.ts';
import type { RequestContext, ServerState } from '../context.ts';
import type { SqlSession } from '../db/sql-session.ts';
import { invalidRequest, JqlFailure, jqlError } from '../errors.ts';
import type { Outcome } from '../query/envelope.ts';
import { isPlainObject, snakeKey } from '../query/normalize.ts';
import { runSingle, type RunOptions } from './run-single.ts';

export interface RootMeta {
  authenticationClass?: 'jwt' | 'session';
  atomic: boolean;
}

export const ROOT_META = '__root_meta__';

/** Names beginning with `__` are the envelope's and the server's (`__payload__`, `__proto__`). */
export function isReservedName(name: string): boolean {
  return name.startsWith('__');
}

/**
 * Checks `__root_meta__`, the subquery names and their number (docs/protocol.md "Errors", "Multi-query") before anything
 * runs: a bad body is a 400 for the whole request, and no subquery of it has run.
 */
export function readRootMeta(document: Record<string, JsonValue>, maxQueries: number): RootMeta {
  const root: RootMeta = { atomic: false };
  const raw = document.__root_meta__;
  if (raw !== undefined) {
    if (!isPlainObject(raw)) invalidRequest('__root_meta__ must be an object', ['__root_meta__']);
    for (const [key, value] of Object.entries(raw as Record<string, JsonValue>)) {
      const name = snakeKey(key);
      if (name === 'authentication_class') {
        if (value !== 'jwt' && value !== 'session') invalidRequest('authenticationClass must be "jwt" or "session"', ['__root_meta__', key]);
        root.authenticationClass = value as 'jwt' | 'session';
      } else if (name === 'atomic') {
        if (typeof value !== 'boolean') invalidRequest('atomic must be a boolean', ['__root_meta__', key]);
        root.atomic = value as boolean;
      } else if (name !== 'comment' && name !== 'see_as') {
        // see_as is read and checked before the subqueries run (auth/see-as.ts).
        invalidRequest(`Unknown __root_meta__ key "${key}"`, ['__root_meta__', key]);
      }
    }
  }
  const names = Object.keys(document).filter((key) => key !== ROOT_META);
  if (names.length === 0) invalidRequest('A multi-query needs at least one named subquery');
  if (names.length > maxQueries) invalidRequest(`A multi-query holds at most ${maxQueries} subqueries (limits.maxQueriesPerRequest); this one has ${names.length}`);
  const reserved = names.filter(isReservedName);
  if (reserved.length > 0) {
    throw new JqlFailure(
      reserved.map((name) => jqlError('invalid_request', `Subquery name "${name}" is reserved: names beginning with "__" belong to the server`, { path: [name] })),
    );
  }
  return root;
}

export async function runMulti(
  state: ServerState,
  /** The context of one subquery, with an SQL session of its own. */
  contextOn: () => RequestContext,
  document: Record<string, JsonValue>,
  root: RootMeta,
  options: RunOptions,
): Promise<{ outcome: Outcome; sessions: SqlSession[] }> {
  const sessions: SqlSession[] = [];
  const results: Record<string, SubqueryResult> = {};
  const names = Object.keys(document).filter((key) => key !== ROOT_META);
  const runAll = async (): Promise<boolean> => {
    let failed = false;
    for (const name of names) {
      const ctx = contextOn();
      sessions.push(ctx.sql);
      const { outcome, meta } = await runSingle(ctx, document[name] as JsonValue, options);
      const { notices, ...extras } = outcome.extras ?? {};
      results[name] = {
        data: outcome.errors ? null : outcome.payload,
        extras: outcome.extras ? extras : null,
        message: outcome.message,
        errors: outcome.errors,
        notices: Array.isArray(notices) ? (notices as string[]) : null,
        intent: outcome.intent ?? meta?.intent ?? null,
      };
      if (outcome.errors) failed = true;
    }
    return failed;
  };
  if (!root.atomic) {
    await runAll();
  } else {
    const undo = new Error('atomic multi-query failed');
    try {
      await state.db.transaction(async () => {
        if (await runAll()) throw undo;
      });
    } catch (error) {
      if (error !== undo) throw error;
      for (const result of Object.values(results)) {
        if (!result.errors) {
          // Nothing it did was kept: neither its data nor its success message ("Created ...") stand.
          // Nor its extras: `filtered`, `display` and the paging describe data it no longer answers;
          // only the statements it ran stay counted.
          result.data = null;
          result.message = null;
          if (result.extras) result.extras = { queries: result.extras.queries as number };
          result.errors = [{ code: 'rolled_back', message: 'This subquery succeeded but was undone because another one failed' }];
        }
      }
    }
  }
  const queries = sessions.reduce((sum, session) => sum + session.queries, 0);
  return {
    sessions,
    outcome: { payload: results as unknown as JsonValue, message: null, extras: { queries }, errors: null, system: null, intent: 'multi' },
  };
}

