/**
 * The read intents of the model processor: retrieve (with paging, caching and groupBy), retrieveOne
 * and count (PROTOCOL.md 2.1, 2.3). A retrieve costs a page query, a count when the page does not
 * already tell the total, and one statement per nested level.
 */
import type { Extras, JsonObject, JsonValue } from '../../../shared/protocol.ts';
import type { ProcessorOutput, RequestContext, Scopes } from '../../context.ts';
import type { Row } from '../../db/sql-session.ts';
import { checkAll, ErrorList, fail, invalidRequest } from '../../errors.ts';
import { JoinSet } from '../../query/joins.ts';
import type { ParsedMeta } from '../../query/meta.ts';
import { cacheKeyOf, paging } from '../../query/paging.ts';
import { compileOrdering } from '../../query/ordering.ts';
import { fieldOf } from '../../query/paths.ts';
import { buildSelection, modelsOf, type Selection } from '../../query/selection.ts';
import type { ModelDef } from '../../workspace/types.ts';
import { groupBy } from './group-by.ts';
import { checkNestedAccess, nestedNotices, selectList, toRecords, type NestedCuts } from './records.ts';
import { compileWhere, omittedFields } from './where.ts';

export function retrieve(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, data: Record<string, JsonValue>): ProcessorOutput {
  const scopes = ctx.state.access.check(model.permissions, 'retrieve', ctx.user, model.key);
  const cacheKey = meta.cache ? cacheKeyOf(ctx, meta, data) : null;
  if (cacheKey) {
    const hit = ctx.state.cache.get(cacheKey);
    if (hit) {
      const { draw: _stored, ...extras } = hit.extras;
      return { payload: hit.payload, extras: { ...extras, ...(meta.draw !== undefined ? { draw: meta.draw } : {}), cached: true } };
    }
  }
  const { limit, offset, notices } = paging(ctx, meta);
  let output: ProcessorOutput;
  let models: Iterable<string>;
  // Signed URLs expire: an answer holding protected files is never served from the cache.
  let cacheable = true;
  if (meta.groupBy) {
    output = groupBy(ctx, model, meta, scopes, limit, offset);
    models = [model.key];
  } else {
    const joins = new JoinSet(model);
    let countFrom = '';
    // The selection, filters and ordering report all their errors in one answer.
    const [selection, where, order] = checkAll(
      () => selectionFor(ctx, model, meta, data),
      () => {
        const compiled = compileWhere(ctx.state.ws, model, { ...meta, scopes }, joins);
        countFrom = joins.from();
        return compiled;
      },
      () => compileOrdering(ctx.state.ws, model, meta.ordering, joins),
    );
    checkNestedAccess(ctx, selection);
    const rows = limit === 0 ? [] : ctx.sql.all(`SELECT ${selectList(selection)} ${joins.from()} ${where.sql} ${order} LIMIT ? OFFSET ?`, [...where.params, limit, offset]);
    // A short, non-empty page (or a short first page) already tells how many records match.
    const knownTotal = rows.length < limit && (rows.length > 0 || offset === 0);
    const filtered = knownTotal ? offset + rows.length : (ctx.sql.get(`SELECT count(*) AS n ${countFrom} ${where.sql}`, where.params)?.n as number);
    const cuts: NestedCuts = new Map();
    const records = toRecords(ctx, selection, rows, true, cuts);
    notices.push(...nestedNotices(cuts, ctx.state.ws.limits.maxNested));
    output = { payload: records, extras: { filtered, display: records.length } };
    models = modelsOf(selection);
    cacheable = !readsProtectedFiles(selection);
  }
  const extras: Extras = { ...output.extras, limit, offset };
  if (meta.draw !== undefined) extras.draw = meta.draw;
  if (notices.length > 0) extras.notices = notices;
  if (cacheKey) {
    if (cacheable) ctx.state.cache.set(cacheKey, models, { payload: output.payload, extras });
    extras.cached = false;
  }
  return { payload: output.payload, extras };
}

export function retrieveOne(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, data: Record<string, JsonValue>): ProcessorOutput {
  const scopes = ctx.state.access.check(model.permissions, 'retrieve', ctx.user, model.key);
  const errors = new ErrorList();
  const selection = errors.check(() => selectionFor(ctx, model, meta, data)) as Selection;
  // A bad selection is reported with uniqueObject's errors, if any; otherwise readOne() reports those.
  if (!errors.empty) errors.check(() => compileWhere(ctx.state.ws, model, { ...meta, scopes }, new JoinSet(model)));
  errors.throwIfAny();
  checkNestedAccess(ctx, selection);
  const cuts: NestedCuts = new Map();
  const record = readOne(ctx, model, meta, selection, scopes, cuts);
  const notices = nestedNotices(cuts, ctx.state.ws.limits.maxNested);
  return { payload: record, intent: 'retrieve', extras: notices.length > 0 ? { notices } : {} };
}

export function count(ctx: RequestContext, model: ModelDef, meta: ParsedMeta): ProcessorOutput {
  const scopes = ctx.state.access.check(model.permissions, 'retrieve', ctx.user, model.key);
  const joins = new JoinSet(model);
  const where = compileWhere(ctx.state.ws, model, { ...meta, scopes }, joins);
  const n = ctx.sql.get(`SELECT count(*) AS n ${joins.from()} ${where.sql}`, where.params)?.n as number;
  return { payload: { count: n }, extras: {} };
}

/** The one record `uniqueObject` names, within the caller's scope: zero is not_found, two is not unique. */
export function readOne(
  ctx: RequestContext,
  model: ModelDef,
  meta: Pick<ParsedMeta, 'uniqueObject' | 'filter' | 'exclude'>,
  selection: Selection,
  scopes: ReturnType<RequestContext['state']['access']['check']>,
  cuts?: NestedCuts,
): JsonObject {
  if (!meta.uniqueObject || Object.keys(meta.uniqueObject).length === 0) invalidRequest('This intent needs __meta__.uniqueObject', ['__meta__', 'unique_object']);
  const id = plainId(meta, scopes);
  let rows: Row[];
  if (id !== null) {
    rows = ctx.sql.all(byIdSql(model, selection), [id]);
  } else {
    const joins = new JoinSet(model);
    const where = compileWhere(ctx.state.ws, model, { uniqueObject: meta.uniqueObject, filter: meta.filter, exclude: meta.exclude, scopes }, joins);
    rows = ctx.sql.all(`SELECT ${selectList(selection)} ${joins.from()} ${where.sql} LIMIT 2`, where.params);
  }
  if (rows.length === 0) fail('not_found', `No ${model.key} matches uniqueObject`, { path: ['__meta__', 'unique_object'] });
  if (rows.length > 1) invalidRequest(`uniqueObject matches more than one ${model.key}; it is not unique`, ['__meta__', 'unique_object']);
  return toRecords(ctx, selection, rows, true, cuts)[0] as JsonObject;
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
  if (sql === undefined) byIdStatements.set(selection, (sql = `SELECT ${selectList(selection)} ${new JoinSet(model).from()} WHERE t0."id" = ? LIMIT 2`));
  return sql;
}

export function selectionFor(ctx: RequestContext, model: ModelDef, meta: Pick<ParsedMeta, 'exclude'>, data: Record<string, JsonValue>): Selection {
  const omit = omittedFields(meta.exclude);
  const errors = new ErrorList();
  for (const name of omit) {
    const field = fieldOf(model, name);
    if ((!field || field.writeOnly || field.hidden) && !model.relations.has(name)) {
      errors.check(() => fail('unknown_field', `Unknown field "${name}" on ${model.key}`, { field: name, path: ['exclude', name] }));
    }
  }
  const selection = errors.check(() => buildSelection(ctx.state.ws, model, data, [], omit));
  errors.throwIfAny();
  return selection as Selection;
}


function readsProtectedFiles(selection: Selection): boolean {
  return (
    selection.columns.some((field) => field.type === 'file' && field.protected) ||
    selection.refs.some((ref) => readsProtectedFiles(ref.selection)) ||
    selection.reverse.some((rev) => readsProtectedFiles(rev.selection))
  );
}

