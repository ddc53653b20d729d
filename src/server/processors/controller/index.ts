/**
 * The `controller` processor (docs/protocol.md "Processors"): `<app>.<ControllerName>` resolves to a class, intent
 * `addDocument` calls `on_add_document(ctx, args)`, and the handler's `{payload, message, extras}`
 * fills the envelope.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import type { ProcessorOutput, RequestContext } from '../../context.ts';
import { fail } from '../../errors.ts';
import type { ParsedMeta } from '../../query/meta.ts';
import { mapKeys, snakeKey } from '../../query/normalize.ts';
import { makeDataApi } from './data-api.ts';
import type { ControllerContext, HandlerResult } from './types.ts';

export async function runController(ctx: RequestContext, meta: ParsedMeta, data: Record<string, JsonValue>): Promise<ProcessorOutput> {
  const controller = ctx.state.controllers.get(meta.namespace);
  if (!controller) return fail('unknown_namespace', `No controller "${meta.namespace}"`, { path: ['__meta__', 'namespace'] });
  // `meta.intent` is the canonical key: the handler and the roles are found by the same key.
  const handlerName = controller.handlers.get(meta.intent);
  if (handlerName === undefined) {
    return fail('unknown_intent', `${meta.namespace} has no intent "${meta.intent}" (it has ${[...controller.handlers.keys()].join(', ') || 'none'})`, {
      path: ['__meta__', 'intent'],
    });
  }
  ctx.state.access.checkController(controller.permissions, meta.intent, ctx.user, meta.namespace);
  const instance = new controller.Class() as Record<string, unknown>;
  const handler = instance[handlerName];
  const controllerCtx: ControllerContext = {
    user: ctx.user,
    data: makeDataApi(ctx),
    transaction: (work) => ctx.state.db.transaction(work),
    events: { emit: (namespace, event, record) => ctx.state.mutations.emit?.(ctx.sql, namespace, event, record) },
    files: ctx.files,
    reject: (message, field) => fail('validation_error', message, field ? { field, path: [field] } : {}),
    request: ctx,
  };
  const result = (await (handler as (c: ControllerContext, a: Record<string, JsonValue>) => unknown).call(
    instance,
    controllerCtx,
    mapKeys(data, snakeKey),
  )) as HandlerResult | undefined | null;
  return {
    payload: result?.payload ?? null,
    message: result?.message ?? null,
    extras: (result?.extras as ProcessorOutput['extras']) ?? {},
  };
}
