/**
 * Runs one single query end to end: parse `__meta__`, run the processor (in a transaction when it may
 * write), and turn the result or failure into an `Outcome`. Nothing here throws to the caller.
 */
import type { Extras, JqlError, JsonValue } from '../../shared/protocol.ts';
import type { RequestContext } from '../context.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import type { Outcome } from '../query/envelope.ts';
import { parseMeta, type ParsedMeta } from '../query/meta.ts';
import { defineKey, isPlainObject } from '../query/normalize.ts';
import { mayWrite, runProcessor } from './processors.ts';

export interface SingleRun {
  outcome: Outcome;
  meta: ParsedMeta | null;
}

export interface RunOptions {
  log?: (error: unknown) => void;
}

export async function runSingle(ctx: RequestContext, document: JsonValue, options: RunOptions = {}): Promise<SingleRun> {
  let meta: ParsedMeta | null = null;
  try {
    if (!isPlainObject(document)) throw new JqlFailure([jqlError('invalid_request', 'A query must be an object with __meta__')]);
    meta = parseMeta(document.__meta__);
    // Copied without __meta__ rather than deleted from a copy: `delete` turns the object into a slow
    // dictionary for everything that reads it afterwards.
    const data: Record<string, JsonValue> = {};
    for (const key in document) if (key !== '__meta__' && Object.hasOwn(document, key)) defineKey(data, key, document[key] as JsonValue);
    const parsed = meta;
    const work = () => runProcessor(ctx, parsed, data);
    // A write runs in a savepoint of the request's write transaction: its failure undoes it alone.
    const output = mayWrite(meta) ? await ctx.state.db.transaction(work) : await work();
    const extras: Extras = { ...(output.extras ?? {}), queries: ctx.sql.queries };
    return {
      meta,
      outcome: { payload: output.payload, message: output.message ?? null, extras, errors: null, system: null, intent: output.intent ?? meta.intent },
    };
  } catch (error) {
    return { meta, outcome: failureOutcome(ctx, error, meta, options) };
  }
}

export function failureOutcome(ctx: RequestContext, error: unknown, meta: ParsedMeta | null, options: RunOptions): Outcome {
  return {
    payload: null,
    message: null,
    extras: { queries: ctx.sql.queries },
    errors: errorsOf(error, Boolean(meta?.debug) && !ctx.state.production, options),
    system: null,
    intent: meta?.intent ?? null,
  };
}

export function errorsOf(error: unknown, debug: boolean, options: RunOptions): JqlError[] {
  if (error instanceof JqlFailure) return error.errors;
  options.log?.(error);
  const internal = jqlError('internal_error', 'The server could not process this query');
  if (debug) {
    const e = error instanceof Error ? error : new Error(String(error));
    internal.detail = { exception: e.name, message: e.message, stack: e.stack };
  }
  return [internal];
}
