/**
 * A single query run from inside a request (a controller's data API): same processors, same caller,
 * same SQL session and transaction; an error throws instead of becoming an envelope.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { ProcessorOutput, RequestContext } from '../context.ts';
import { parseMeta } from '../query/meta.ts';
import { runProcessor } from './processors.ts';

export function dispatchInner(ctx: RequestContext, document: Record<string, JsonValue>): Promise<ProcessorOutput> {
  const meta = parseMeta(document.__meta__);
  const data: Record<string, JsonValue> = { ...document };
  delete data.__meta__;
  return runProcessor(ctx, meta, data);
}
