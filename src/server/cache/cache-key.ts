/**
 * The key of a cached retrieve (docs/protocol.md "`__meta__` keys"): the caller and the normalized query. `draw` is
 * echoed and `debug`/`render` only shape the answer, so they are not part of it.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { RequestContext } from '../context.ts';
import type { ParsedMeta } from '../query/meta.ts';

export function cacheKeyOf(ctx: Pick<RequestContext, 'user'>, meta: ParsedMeta, data: Record<string, JsonValue>): string {
  const { debug: _debug, onlyData: _onlyData, draw: _draw, ...rest } = meta;
  return `${ctx.user ? `u${ctx.user.id}` : 'anon'}|${JSON.stringify(rest)}|${JSON.stringify(data)}`;
}
