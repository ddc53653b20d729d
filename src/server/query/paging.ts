/**
 * What every processor's retrieve shares: the effective limit and offset with the clamp notice
 * (PROTOCOL.md 2.3), and the cache key of a query (the normalized query plus the caller).
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { RequestContext } from '../context.ts';
import type { ParsedMeta } from './meta.ts';

export function paging(ctx: RequestContext, meta: ParsedMeta): { limit: number; offset: number; notices: string[] } {
  const { defaultLimit, maxLimit } = ctx.state.ws.limits;
  const notices: string[] = [];
  let limit = meta.limit ?? defaultLimit;
  if (limit > maxLimit) {
    notices.push(`limit ${limit} is above the maximum of ${maxLimit}; it was clamped to ${maxLimit}`);
    limit = maxLimit;
  }
  return { limit, offset: meta.offset ?? 0, notices };
}

/** The same question from the same caller is the same entry; draw is echoed, debug/render only shape the answer. */
export function cacheKeyOf(ctx: RequestContext, meta: ParsedMeta, data: Record<string, JsonValue>): string {
  const { debug: _debug, onlyData: _onlyData, draw: _draw, ...rest } = meta;
  return `${ctx.user ? `u${ctx.user.id}` : 'anon'}|${JSON.stringify(rest)}|${JSON.stringify(data)}`;
}
