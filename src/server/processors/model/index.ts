/**
 * The `model` processor (docs/protocol.md "Model intents", "Processors"): resolves `<app>.<Model>` and runs the intent.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import type { ProcessorOutput, RequestContext } from '../../context.ts';
import { fail, invalidRequest } from '../../errors.ts';
import type { ParsedMeta } from '../../query/meta.ts';
import { snakeKey, snakeSelection, mapKeys } from '../../query/normalize.ts';
import { count, retrieve, retrieveOne } from './read.ts';
import { whyNot } from './why-not.ts';
import { create, remove, update } from './write.ts';

export const MODEL_INTENTS = ['retrieve', 'retrieveOne', 'count', 'create', 'update', 'delete'] as const;
const MUTATIONS = new Set(['create', 'update', 'delete']);

export function isModelMutation(intent: string): boolean {
  return MUTATIONS.has(intent);
}

export async function runModel(ctx: RequestContext, meta: ParsedMeta, rawData: Record<string, JsonValue>): Promise<ProcessorOutput> {
  const model = ctx.state.ws.models.get(meta.namespace);
  if (!model) return fail('unknown_namespace', `No model "${meta.namespace}"`, { path: ['__meta__', 'namespace'] });
  if (meta.whyNot) {
    // An explanation of a retrieve's answer: the retrieve's own rules, evaluated on one record.
    if (meta.intent !== 'retrieve' || meta.groupBy) invalidRequest('whyNot explains the records of a retrieve (without groupBy)', ['__meta__', 'why_not']);
    return whyNot(ctx, model, meta, snakeSelection(rawData));
  }
  switch (meta.intent) {
    case 'retrieve':
      return retrieve(ctx, model, meta, snakeSelection(rawData));
    case 'retrieveOne':
      return retrieveOne(ctx, model, meta, snakeSelection(rawData));
    case 'count':
      return count(ctx, model, meta);
    case 'create':
      return create(ctx, model, meta, mapKeys(rawData, snakeKey));
    case 'update':
      return update(ctx, model, meta, mapKeys(rawData, snakeKey));
    case 'delete':
      return remove(ctx, model, meta);
    default:
      return fail('unknown_intent', `Models answer ${MODEL_INTENTS.join(', ')}; not "${meta.intent}"`, { path: ['__meta__', 'intent'] });
  }
}
