// The `nosql` processor (docs/protocol.md "Processors"): resolves `<app>.<Collection>` and runs the intent on its
// schemaless JSON documents. Data keys are the document and reach here exactly as sent.
import type { JsonValue } from '../../../shared/protocol.ts';
import type { ProcessorOutput, RequestContext } from '../../context.ts';
import { fail, invalidRequest } from '../../errors.ts';
import type { ParsedMeta } from '../../query/meta.ts';
import { count, retrieve, retrieveOne } from './read.ts';
import { create, remove, update } from './write.ts';

export { ensureNosqlTables } from './tables.ts';

export const NOSQL_INTENTS = ['retrieve', 'retrieveOne', 'count', 'create', 'update', 'delete'] as const;
const MUTATIONS = new Set(['create', 'update', 'delete']);

/** Whether the intent writes, for a dispatcher that opens a transaction around writes. */
export function isNosqlMutation(intent: string): boolean {
  return MUTATIONS.has(intent);
}

export async function runNosql(ctx: RequestContext, meta: ParsedMeta, data: Record<string, JsonValue>): Promise<ProcessorOutput> {
  const collection = ctx.state.ws.collections.get(meta.namespace);
  if (!collection) return fail('unknown_namespace', `No collection "${meta.namespace}"`, { path: ['__meta__', 'namespace'] });
  // Options that mean something only for models are refused rather than silently ignored.
  if (meta.groupBy) invalidRequest('groupBy is not supported on collections', ['__meta__', 'group_by']);
  if (meta.fileFieldMapping) invalidRequest('File uploads are not supported on collections', ['__meta__', 'side_effects']);
  switch (meta.intent) {
    case 'retrieve':
      return retrieve(ctx, collection, meta, data);
    case 'retrieveOne':
      return retrieveOne(ctx, collection, meta, data);
    case 'count':
      return count(ctx, collection, meta);
    case 'create':
      return create(ctx, collection, meta, data);
    case 'update':
      return update(ctx, collection, meta, data);
    case 'delete':
      return remove(ctx, collection, meta);
    default:
      return fail('unknown_intent', `Collections answer ${NOSQL_INTENTS.join(', ')}; not "${meta.intent}"`, { path: ['__meta__', 'intent'] });
  }
}
