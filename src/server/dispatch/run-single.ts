/**
 * Runs one single query end to end: parse `__meta__`, run the processor (in a transaction when it may
 * write), and turn the result or failure into an `Outcome`. Nothing here throws to the caller.
 */
import type { Extras, JqlError, JsonValue } from '../../shared/protocol.ts';
import type { ProcessorOutput, QueryPlan, RequestContext } from '../context.ts';
import { JqlFailure, jqlError, storageFault } from '../errors.ts';
import type { Outcome } from '../query/envelope.ts';
import { parseMeta, type ParsedMeta } from '../query/meta.ts';
import { defineKey, isPlainObject } from '../query/normalize.ts';
import { plansOf } from '../query/plan-cache.ts';
import { shapeOf } from '../query/plan-shape.ts';
import { entryValues, planValues } from '../query/plan-values.ts';
import { mayWrite, runProcessor } from './processors.ts';

export interface SingleRun {
  outcome: Outcome;
  meta: ParsedMeta | null;
}

export interface RunOptions {
  log?: (error: unknown) => void;
  /** The query's shape (query/plan-shape.ts), when the caller has already worked it out. */
  shape?: string | null;
}

export async function runSingle(ctx: RequestContext, document: JsonValue, options: RunOptions = {}): Promise<SingleRun> {
  // A read of a shape answered before, for a caller with the same grants, runs its plan.
  const shape = options.shape !== undefined ? options.shape : ctx.state.shortcuts ? shapeOf(document) : null;
  const planned = shape === null ? null : runPlanned(ctx, shape, document as Record<string, JsonValue>, options);
  if (planned) return planned;
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
    // A query run as another user is never remembered as a plan: a plan would answer the next such
    // query without the check that only an admin may ask it (auth/see-as.ts).
    if (shape !== null && output.plan && meta.seeAs === undefined) learnPlan(ctx, shape, document as Record<string, JsonValue>, meta, output.plan);
    return { meta, outcome: outcomeOf(ctx, output, meta) };
  } catch (error) {
    return { meta, outcome: failureOutcome(ctx, error, meta, options) };
  }
}

function outcomeOf(ctx: RequestContext, output: ProcessorOutput, meta: ParsedMeta): Outcome {
  const extras: Extras = { ...(output.extras ?? {}), queries: ctx.sql.queries };
  return { payload: output.payload, message: output.message ?? null, extras, errors: null, system: null, intent: output.intent ?? meta.intent };
}

/**
 * The answer of the shape's plan for this caller, or null when there is none or a value needs the
 * full path (synchronous: dispatch/run-request.ts answers an anonymous read with it, no await); a failure of the plan's run itself (not_found) is this query's answer, as on the full path.
 */
export function runPlanned(ctx: RequestContext, shape: string, document: Record<string, JsonValue>, options: RunOptions): SingleRun | null {
  const plans = plansOf(ctx.state);
  let bound;
  try {
    bound = plans.bind(shape, ctx, document.__meta__ as Record<string, JsonValue>);
  } catch {
    return null;
  }
  if (!bound) return null;
  const { cached, run } = bound;
  plans.hit();
  try {
    return { meta: cached.meta, outcome: outcomeOf(ctx, run(), cached.meta) };
  } catch (error) {
    return { meta: cached.meta, outcome: failureOutcome(ctx, error, cached.meta, options) };
  }
}

/** Keeps the plan, once its values are known to be read from the query as sent as parsing read them. */
function learnPlan(ctx: RequestContext, shape: string, document: Record<string, JsonValue>, meta: ParsedMeta, plan: QueryPlan): void {
  let sent;
  try {
    sent = planValues(document.__meta__ as Record<string, JsonValue>);
  } catch {
    return;
  }
  const parsed = entryValues(meta);
  // Keys that collapse when normalized (`fooBar` and `foo_bar`) leave fewer entries: no plan for those.
  if (sent.uniqueObject.length !== parsed.uniqueObject.length || sent.filter.length !== parsed.filter.length || sent.exclude.length !== parsed.exclude.length) return;
  plansOf(ctx.state).learn(shape, { plan, meta });
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
  const storage = storageFault(error);
  if (storage) return storage.errors;
  const internal = jqlError('internal_error', 'The server could not process this query');
  if (debug) {
    const e = error instanceof Error ? error : new Error(String(error));
    internal.detail = { exception: e.name, message: e.message, stack: e.stack };
  }
  return [internal];
}
