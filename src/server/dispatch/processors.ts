/**
 * Routes a parsed query to its processor by `__meta__.schema` (docs/protocol.md "Processors"). The processors are
 * siblings that never import each other; this is the one place that knows all of them.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { ProcessorOutput, RequestContext } from '../context.ts';
import type { ParsedMeta } from '../query/meta.ts';
import { runController } from '../processors/controller/index.ts';
import { isModelMutation, runModel } from '../processors/model/index.ts';
import { isNosqlMutation, runNosql } from '../processors/nosql/index.ts';

export function runProcessor(ctx: RequestContext, meta: ParsedMeta, data: Record<string, JsonValue>): Promise<ProcessorOutput> {
  switch (meta.schema) {
    case 'model':
      return runModel(ctx, meta, data);
    case 'nosql':
      return runNosql(ctx, meta, data);
    default:
      return runController(ctx, meta, data);
  }
}

/** Whether a query may write, so it runs in its own transaction. Controllers always may. */
export function mayWrite(meta: Pick<ParsedMeta, 'schema' | 'intent'>): boolean {
  if (meta.schema === 'controller') return true;
  return meta.schema === 'nosql' ? isNosqlMutation(meta.intent) : isModelMutation(meta.intent);
}
