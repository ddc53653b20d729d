/**
 * The data API a controller handler gets: queries go through the dispatcher (the same processors,
 * the caller's permissions, the request's transaction and SQL count), and errors throw.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import type { RequestContext } from '../../context.ts';
import type { DataApi } from './types.ts';

export function makeDataApi(ctx: RequestContext): DataApi {
  const query = async (document: Record<string, JsonValue>): Promise<JsonValue> => {
    const output = await ctx.state.dispatch(ctx, document);
    return output.payload;
  };
  const schemaOf = (namespace: string): 'model' | 'nosql' => (ctx.state.ws.collections.has(namespace) ? 'nosql' : 'model');
  const meta = (namespace: string, intent: string, extra: Record<string, JsonValue> = {}) => ({ namespace, intent, schema: schemaOf(namespace), ...extra });
  return {
    query,
    retrieve: (namespace, extra = {}, fields = {}) => query({ __meta__: meta(namespace, 'retrieve', extra), ...fields }),
    retrieveOne: (namespace, uniqueObject, fields = {}) => query({ __meta__: meta(namespace, 'retrieveOne', { uniqueObject }), ...fields }),
    create: (namespace, values, extra = {}) => query({ __meta__: meta(namespace, 'create', extra), ...values }),
    update: (namespace, uniqueObject, values) => query({ __meta__: meta(namespace, 'update', { uniqueObject }), ...values }),
    delete: (namespace, uniqueObject) => query({ __meta__: meta(namespace, 'delete', { uniqueObject }) }),
  };
}


