/**
 * What every processor's retrieve shares: the effective limit and offset with the clamp notice
 * (docs/protocol.md "`__meta__` keys").
 */
import type { RequestContext } from '../context.ts';
import type { ParsedMeta } from './meta.ts';

export function paging(ctx: RequestContext, meta: Pick<ParsedMeta, 'limit' | 'offset'>): { limit: number; offset: number; notices: string[] } {
  const { defaultLimit, maxLimit } = ctx.state.ws.limits;
  const notices: string[] = [];
  let limit = meta.limit ?? defaultLimit;
  if (limit > maxLimit) {
    notices.push(`limit ${limit} is above the maximum of ${maxLimit}; it was clamped to ${maxLimit}`);
    limit = maxLimit;
  }
  return { limit, offset: meta.offset ?? 0, notices };
}
