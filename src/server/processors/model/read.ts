/**
 * The read intents of the model processor: retrieve (with paging, caching and groupBy), retrieveOne
 * and count (PROTOCOL.md 2.1, 2.3). A retrieve costs a page query, a count when the page does not
 * already tell the total, and one statement per nested level.
 */
import type { Extras, JsonObject, JsonValue } from '../../../shared/protocol.ts';
import { extrasOfHit } from '../../cache/answer-cache.ts';
import { cacheKeyOf } from '../../cache/cache-key.ts';
import type { FileSlot, ProcessorOutput, RequestContext, Scopes } from '../../context.ts';
import type { Row } from '../../db/sql-session.ts';
import { fail, invalidRequest, type ErrorPath } from '../../errors.ts';
import { JoinSet, rootFrom } from '../../query/joins.ts';
import type { ParsedMeta } from '../../query/meta.ts';
import { paging } from '../../query/paging.ts';
import { compileOrdering } from '../../query/ordering.ts';
import { fieldOf } from '../../query/paths.ts';
import { ModelReach } from '../../query/reach.ts';
import { buildSelection, enterSelection, type Selection } from '../../query/selection.ts';
import type { ModelDef } from '../../workspace/types.ts';
import { protectedFileSlots, signFilesAfresh } from './cached-files.ts';
import { groupBy } from './group-by.ts';
import { selectList, toRecords } from './records.ts';
import { compileWhere, omittedFields } from './where.ts';

export function retrieve(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, data: Record<string, JsonValue>): ProcessorOutput {
  const scopes = ctx.state.access.check(model.permissions, 'retrieve', ctx.user, model.key);
  const cached = meta.cache ? ctx.state.cache.open(ctx, cacheKeyOf(ctx, meta, data)) : null;
  if (cached?.hit) {
    const { payload, files } = cached.hit;
    if (files) signFilesAfresh(ctx, payload, files);
    return { payload, extras: extrasOfHit(cached.hit, meta.draw) };
  }
  const { limit, offset, notices } = paging(ctx, meta);
  let output: ProcessorOutput;
  // Every model the answer depends on (selection, filter, exclude, ordering, grouping, aggregates):
  // each was entered with the caller's permission, and a change to any of them invalidates the entry.
  const reach = new ModelReach(ctx, model, scopes);
  let files: FileSlot[] = [];
  if (meta.groupBy) {
    output = groupBy(ctx, reach, meta, scopes, limit, offset);
  } else {
    const selection = selectionFor(ctx, model, meta, data);
    enterSelection(reach, selection);
    const joins = new JoinSet(reach);
    const where = compileWhere(ctx.state.ws, model, { ...meta, scopes }, joins);
    // The count needs no join that only the ordering adds.
    const countFrom = joins.from();
    const order = compileOrdering(ctx.state.ws, model, meta.ordering, joins);
    const from = joins.from();
    const rows =
      limit === 0 ? [] : ctx.sql.all(`SELECT ${selectList(selection)} ${from.sql} ${where.sql} ${order} LIMIT ? OFFSET ?`, [...from.params, ...where.params, limit, offset]);
    // A short, non-empty page (or a short first page) already tells how many records match.
    const knownTotal = rows.length < limit && (rows.length > 0 || offset === 0);
    const filtered = knownTotal
      ? offset + rows.length
      : (ctx.sql.get(`SELECT count(*) AS n ${countFrom.sql} ${where.sql}`, [...countFrom.params, ...where.params])?.n as number);
    const records = toRecords(ctx, selection, rows, true);
    output = { payload: records, extras: { filtered, display: records.length } };
    if (cached) files = protectedFileSlots(selection, records);
  }
  const extras: Extras = { ...output.extras, limit, offset };
  if (meta.draw !== undefined) extras.draw = meta.draw;
  if (notices.length > 0) extras.notices = notices;
  if (cached) {
    cached.keep(reach.models, files.length > 0 ? { payload: output.payload, extras, files } : { payload: output.payload, extras });
    extras.cached = false;
  }
  return { payload: output.payload, extras };
}

export function retrieveOne(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, data: Record<string, JsonValue>): ProcessorOutput {
  const scopes = ctx.state.access.check(model.permissions, 'retrieve', ctx.user, model.key);
  const selection = selectionFor(ctx, model, meta, data);
  const record = readOne(ctx, model, meta, selection, scopes);
  return { payload: record, intent: 'retrieve', extras: {} };
}

export function count(ctx: RequestContext, model: ModelDef, meta: ParsedMeta): ProcessorOutput {
  const scopes = ctx.state.access.check(model.permissions, 'retrieve', ctx.user, model.key);
  const joins = new JoinSet(new ModelReach(ctx, model, scopes));
  const where = compileWhere(ctx.state.ws, model, { ...meta, scopes }, joins);
  const from = joins.from();
  const n = ctx.sql.get(`SELECT count(*) AS n ${from.sql} ${where.sql}`, [...from.params, ...where.params])?.n as number;
  return { payload: { count: n }, extras: {} };
}

/**
 * The one record `uniqueObject` names, within the caller's scope: zero is not_found, two is not unique.
 * Every model the selection or the conditions reach is checked for the caller first.
 */
export function readOne(
  ctx: RequestContext,
  model: ModelDef,
  meta: Pick<ParsedMeta, 'uniqueObject' | 'filter' | 'exclude'>,
  selection: Selection,
  scopes: Scopes,
  /** Where the selection sits in the request (a mutation's is `__meta__.return`), for refusals. */
  selectionPath: ErrorPath = [],
): JsonObject {
  if (!meta.uniqueObject || Object.keys(meta.uniqueObject).length === 0) invalidRequest('This intent needs __meta__.uniqueObject', ['__meta__', 'unique_object']);
  const reach = new ModelReach(ctx, model, scopes);
  enterSelection(reach, selection, selectionPath);
  const id = plainId(meta, scopes);
  let rows: Row[];
  if (id !== null) {
    rows = ctx.sql.all(byIdSql(model, selection), [id]);
  } else {
    const joins = new JoinSet(reach);
    const where = compileWhere(ctx.state.ws, model, { uniqueObject: meta.uniqueObject, filter: meta.filter, exclude: meta.exclude, scopes }, joins);
    const from = joins.from();
    rows = ctx.sql.all(`SELECT ${selectList(selection)} ${from.sql} ${where.sql} LIMIT 2`, [...from.params, ...where.params]);
  }
  if (rows.length === 0) fail('not_found', `No ${model.key} matches uniqueObject`, { path: ['__meta__', 'unique_object'] });
  if (rows.length > 1) invalidRequest(`uniqueObject matches more than one ${model.key}; it is not unique`, ['__meta__', 'unique_object']);
  return toRecords(ctx, selection, rows, true)[0] as JsonObject;
}

/**
 * `uniqueObject: {"id": n}` alone (no filter, exclude or row scope) is the most common read of all
 * (every mutation reads its record back that way): its id, so that its SQL can be reused as is.
 */
function plainId(meta: Pick<ParsedMeta, 'uniqueObject' | 'filter' | 'exclude'>, scopes: Scopes): number | null {
  if (scopes !== null || meta.filter !== undefined || meta.exclude !== undefined) return null;
  const unique = meta.uniqueObject as Record<string, JsonValue>;
  let keys = 0;
  for (const _ in unique) keys++;
  const id = unique.id;
  return keys === 1 && Object.hasOwn(unique, 'id') && Number.isSafeInteger(id) ? (id as number) : null;
}

// The same text compileWhere() builds for that case, made once per selection: the statement cache
// then finds it without building, flattening and hashing a new string on every request.
const byIdStatements = new WeakMap<Selection, string>();

function byIdSql(model: ModelDef, selection: Selection): string {
  let sql = byIdStatements.get(selection);
  if (sql === undefined) byIdStatements.set(selection, (sql = `SELECT ${selectList(selection)} ${rootFrom(model)} WHERE t0."id" = ? LIMIT 2`));
  return sql;
}

export function selectionFor(ctx: RequestContext, model: ModelDef, meta: Pick<ParsedMeta, 'exclude'>, data: Record<string, JsonValue>): Selection {
  const omit = omittedFields(meta.exclude);
  for (const name of omit) {
    const field = fieldOf(model, name);
    if ((!field || field.writeOnly || field.hidden) && !model.relations.has(name)) {
      fail('unknown_field', `Unknown field "${name}" on ${model.key}`, { field: name, path: ['exclude', name] });
    }
  }
  return buildSelection(ctx.state.ws, model, data, [], omit);
}
