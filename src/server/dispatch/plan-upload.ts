/**
 * What `PUT /jql` checks before it stores any file part (docs/protocol.md "Multipart uploads"): the query is parsed, the
 * caller identified, and every query's intent authorized with the same checks its processor starts
 * with (the namespace exists, the intent is one it has, the caller's roles allow it). A refusal answers
 * the request before a byte of a file is written; the plan then tells which parts the queries use, so
 * a part no query takes is refused before it is written too. Row scopes, which need the rows, are
 * still checked when the query runs (a refused write rolls back and releases its files).
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { Credentials } from '../auth/identify.ts';
import type { AuthUser, ServerState } from '../context.ts';
import { JqlFailure, fail, invalidRequest } from '../errors.ts';
import { partsUsedBy } from '../files/part-usage.ts';
import { parseMeta, type ParsedMeta } from '../query/meta.ts';
import { isPlainObject } from '../query/normalize.ts';
import { MODEL_INTENTS } from '../processors/model/index.ts';
import { NOSQL_INTENTS } from '../processors/nosql/index.ts';
import { identifyCaller, readRequestShape } from './request-caller.ts';
import { ROOT_META } from './run-multi.ts';

export interface UploadPlan {
  body: JsonValue;
  /** Whether a query of the request takes the file part of this name. */
  accepts(part: string): boolean;
}

export async function planUpload(state: ServerState, body: JsonValue, credentials: Credentials): Promise<UploadPlan> {
  const shape = readRequestShape(state, body);
  const caller = await identifyCaller(state, shape, credentials);
  if (caller.error) throw caller.error;
  const queries: Array<[string | null, JsonValue]> = shape.single
    ? [[null, shape.body]]
    : Object.entries(shape.body).filter(([name]) => name !== ROOT_META);
  const metas: ParsedMeta[] = [];
  for (const [name, query] of queries) {
    try {
      if (!isPlainObject(query)) invalidRequest('A query must be an object with __meta__');
      const meta = parseMeta((query as Record<string, JsonValue>).__meta__);
      authorizeIntent(state, meta, caller.user);
      metas.push(meta);
    } catch (error) {
      // In a multi-query, say which subquery was refused.
      if (name === null || !(error instanceof JqlFailure)) throw error;
      throw new JqlFailure(error.errors.map((e) => ({ ...e, path: [name, ...(e.path ?? [])] })));
    }
  }
  const used = partsUsedBy(metas, state.controllers);
  return { body, accepts: (part) => used.any || used.names.has(part) };
}

function authorizeIntent(state: ServerState, meta: ParsedMeta, user: AuthUser | null): void {
  const where = { path: ['__meta__', 'namespace'] };
  const unknownIntent = (intents: readonly string[]): never =>
    fail('unknown_intent', `${meta.namespace} has no intent "${meta.intent}" (it has ${intents.join(', ')})`, { path: ['__meta__', 'intent'] });
  switch (meta.schema) {
    case 'model': {
      const model = state.ws.models.get(meta.namespace) ?? fail('unknown_namespace', `No model "${meta.namespace}"`, where);
      if (!(MODEL_INTENTS as readonly string[]).includes(meta.intent)) unknownIntent(MODEL_INTENTS);
      state.access.check(model.permissions, meta.intent, user, model.key);
      return;
    }
    case 'nosql': {
      const collection = state.ws.collections.get(meta.namespace) ?? fail('unknown_namespace', `No collection "${meta.namespace}"`, where);
      if (!(NOSQL_INTENTS as readonly string[]).includes(meta.intent)) unknownIntent(NOSQL_INTENTS);
      state.access.check(collection.permissions, meta.intent, user, collection.key);
      return;
    }
    default: {
      const controller = state.controllers.get(meta.namespace) ?? fail('unknown_namespace', `No controller "${meta.namespace}"`, where);
      if (!controller.handlers.has(meta.intent)) unknownIntent([...controller.handlers.keys()]);
      state.access.checkController(controller.permissions, meta.intent, user, meta.namespace);
    }
  }
}
