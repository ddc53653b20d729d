// The read intents of a collection: retrieve (paging, caching), retrieveOne and count (docs/protocol.md "Model intents",
// 2.3, 6). A retrieve costs one page query, plus a count when the page does not tell the total.
import type { Extras, JsonObject, JsonValue } from '../../../shared/protocol.ts';
import { extrasOfHit } from '../../cache/answer-cache.ts';
import { cacheKeyOf } from '../../cache/cache-key.ts';
import type { ProcessorOutput, RequestContext, Scopes } from '../../context.ts';
import type { Row, SqlParam } from '../../db/sql-session.ts';
import { checkAll, fail, invalidRequest } from '../../errors.ts';
import type { ParsedMeta } from '../../query/meta.ts';
import { paging } from '../../query/paging.ts';
import { scopeReads } from '../../query/reach.ts';
import type { CollectionDef } from '../../workspace/types.ts';
import { compileOrdering } from './ordering.ts';
import { ROW_COLUMNS, selectionOf, toRecord } from './records.ts';
import { DOCUMENTS_TABLE } from './tables.ts';
import { compileWhere } from './where.ts';

const FROM = `FROM ${DOCUMENTS_TABLE} AS d`;

export function retrieve(ctx: RequestContext, collection: CollectionDef, meta: ParsedMeta, data: Record<string, JsonValue>): ProcessorOutput {
  const scopes = ctx.state.access.check(collection.permissions, 'retrieve', ctx.user, collection.key);
  const cached = meta.cache ? ctx.state.cache.open(ctx, cacheKeyOf(ctx, meta, data)) : null;
  if (cached?.hit) return { payload: cached.hit.payload, extras: extrasOfHit(cached.hit, meta.draw) };
  const { limit, offset, notices } = paging(ctx, meta);
  const orderParams: SqlParam[] = [];
  // The selection, filters and ordering report all their errors in one answer.
  const [selection, where, order] = checkAll(
    () => selectionOf(data, meta.exclude, []),
    () => compileWhere(collection.key, { ...meta, scopes }),
    () => compileOrdering(meta.ordering, orderParams),
  );
  const rows = limit === 0 ? [] : ctx.sql.all(`SELECT ${ROW_COLUMNS} ${FROM} ${where.sql} ${order} LIMIT ? OFFSET ?`, [...where.params, ...orderParams, limit, offset]);
  // A short, non-empty page (or a short first page) already tells how many documents match.
  const knownTotal = rows.length < limit && (rows.length > 0 || offset === 0);
  const filtered = knownTotal ? offset + rows.length : (ctx.sql.get(`SELECT count(*) AS n ${FROM} ${where.sql}`, where.params)?.n as number);
  const records = rows.map((row) => toRecord(row, selection));
  const extras: Extras = { filtered, display: records.length, limit, offset };
  if (meta.draw !== undefined) extras.draw = meta.draw;
  if (notices.length > 0) extras.notices = notices;
  if (cached) {
    // A collection has no references: its scope is all it reads besides itself.
    cached.keep([collection.key, ...scopeReads(ctx, scopes)], { payload: records, extras });
    extras.cached = false;
  }
  return { payload: records, extras };
}

export function retrieveOne(ctx: RequestContext, collection: CollectionDef, meta: ParsedMeta, data: Record<string, JsonValue>): ProcessorOutput {
  const scopes = ctx.state.access.check(collection.permissions, 'retrieve', ctx.user, collection.key);
  const selection = selectionOf(data, meta.exclude, []);
  return { payload: toRecord(readOne(ctx, collection, meta, scopes), selection), intent: 'retrieve', extras: {} };
}

export function count(ctx: RequestContext, collection: CollectionDef, meta: ParsedMeta): ProcessorOutput {
  const scopes = ctx.state.access.check(collection.permissions, 'retrieve', ctx.user, collection.key);
  const where = compileWhere(collection.key, { ...meta, scopes });
  const n = ctx.sql.get(`SELECT count(*) AS n ${FROM} ${where.sql}`, where.params)?.n as number;
  const payload: JsonObject = { count: n };
  return { payload, extras: {} };
}

/** The one stored row `uniqueObject` names within the caller's scope: zero is not_found, two is not unique. */
export function readOne(ctx: RequestContext, collection: CollectionDef, meta: Pick<ParsedMeta, 'uniqueObject' | 'filter' | 'exclude'>, scopes: Scopes): Row {
  if (!meta.uniqueObject || Object.keys(meta.uniqueObject).length === 0) invalidRequest('This intent needs __meta__.uniqueObject', ['__meta__', 'unique_object']);
  const where = compileWhere(collection.key, { uniqueObject: meta.uniqueObject, filter: meta.filter, exclude: meta.exclude, scopes });
  const rows = ctx.sql.all(`SELECT ${ROW_COLUMNS} ${FROM} ${where.sql} LIMIT 2`, where.params);
  if (rows.length === 0) fail('not_found', `No ${collection.key} matches uniqueObject`, { path: ['__meta__', 'unique_object'] });
  if (rows.length > 1) invalidRequest(`uniqueObject matches more than one ${collection.key}; it is not unique`, ['__meta__', 'unique_object']);
  return rows[0] as Row;
}

/** Whether the stored document `id` is inside the caller's row scopes. */
export function inScope(ctx: RequestContext, collection: CollectionDef, id: number, scopes: NonNullable<Scopes>): boolean {
  const where = compileWhere(collection.key, { uniqueObject: { id }, scopes });
  return ctx.sql.get(`SELECT 1 AS found ${FROM} ${where.sql}`, where.params) !== undefined;
}


