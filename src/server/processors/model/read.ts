/**
 * The read intents of the model processor: retrieve (with paging, caching and groupBy), retrieveOne
 * and count (docs/protocol.md "Model intents", "`__meta__` keys"). A retrieve costs a page query, a count when the page does not
 * already tell the total, and one statement per nested level.
 */
import type { Extras, JsonObject, JsonValue } from '../../../shared/protocol.ts';
import { extrasOfHit } from '../../cache/answer-cache.ts';
import { cacheKeyOf } from '../../cache/cache-key.ts';
import type { FileSlot, ProcessorOutput, QueryPlan, RequestContext, Scopes } from '../../context.ts';
import type { Row, SqlParam } from '../../db/sql-session.ts';
import { rowBytesAtMost } from '../../query/answer-budget.ts';
import { ErrorList, fail, invalidRequest, type ErrorPath } from '../../errors.ts';
import { JoinSet, rootFrom } from '../../query/joins.ts';
import type { ParsedMeta } from '../../query/meta.ts';
import { paging } from '../../query/paging.ts';
import { PlanGrants } from '../../query/plan-cache.ts';
import { entryValues, planValues, type EntryValues, type PlanValues } from '../../query/plan-values.ts';
import { compileOrdering } from '../../query/ordering.ts';
import { fieldOf } from '../../query/paths.ts';
import { ModelReach } from '../../query/reach.ts';
import { buildSelection, enterSelection, type Selection } from '../../query/selection.ts';
import type { ModelDef } from '../../workspace/types.ts';
import { protectedFileSlots, signFilesAfresh } from './cached-files.ts';
import { groupBy } from './group-by.ts';
import { nestedNotices, selectList, toRecords, type NestedCuts } from './records.ts';
import { compileWhere, omittedFields, type Where } from './where.ts';

export function retrieve(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, data: Record<string, JsonValue>): ProcessorOutput {
  const scopes = ctx.state.access.check(model.permissions, 'retrieve', ctx.user, model.key);
  const cached = meta.cache ? ctx.state.cache.open(ctx, cacheKeyOf(ctx, meta, data)) : null;
  if (cached?.hit) {
    const { payload, files } = cached.hit;
    if (files) signFilesAfresh(ctx, payload, files);
    return { payload, extras: extrasOfHit(cached.hit, meta.draw) };
  }
  // Every model the answer depends on (selection, filter, exclude, ordering, grouping, aggregates):
  // each was entered with the caller's permission, and a change to any of them invalidates the entry.
  const reach = new ModelReach(ctx, model, scopes);
  let output: ProcessorOutput;
  let files: FileSlot[] = [];
  if (meta.groupBy) {
    const { limit, offset, notices } = paging(ctx, meta);
    output = pageOutput(groupBy(ctx, reach, meta, scopes, limit, offset), { limit, offset, notices, draw: meta.draw });
  } else {
    const page = compilePage(ctx, model, meta, data, reach, scopes);
    const { answer, records } = page.run(ctx, readValues(meta));
    output = answer;
    if (cached) files = protectedFileSlots(page.selection, records);
    else {
      const { rebind } = page.where;
      if (rebind) output.plan = planOf(ctx, reach, (c, values) => {
        const bound = rebind(values);
        if (bound.form !== page.where.form) return null;
        return () => page.run(c, values, bound).answer;
      });
    }
  }
  if (cached) {
    const extras = output.extras as Extras;
    cached.keep(reach.models, files.length > 0 ? { payload: output.payload, extras, files } : { payload: output.payload, extras });
    extras.cached = false;
  }
  return output;
}

/** What retrieve binds: its entries' values and its paging (from the parsed query or a plan's). */
function readValues(meta: ParsedMeta): PlanValues {
  return { ...entryValues(meta), limit: meta.limit, offset: meta.offset, draw: meta.draw };
}

/** A retrieve's page compiled once: run it with a request's values (and, on a plan, its bound WHERE). */
function compilePage(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, data: Record<string, JsonValue>, reach: ModelReach, scopes: Scopes) {
  // The selection, filters and ordering report all their errors in one answer.
  const errors = new ErrorList();
  const selection = errors.check(() => selectionFor(ctx, model, meta, data)) as Selection;
  if (errors.empty) enterSelection(reach, selection);
  const joins = new JoinSet(reach);
  const where = errors.check(() => compileWhere(ctx.state.ws, model, { ...meta, scopes }, joins)) as Where;
  // The count needs no join that only the ordering adds.
  const countFrom = joins.from();
  const order = errors.check(() => compileOrdering(ctx.state.ws, model, meta.ordering, joins)) as string;
  errors.throwIfAny();
  const from = joins.from();
  const pageSql = `SELECT ${selectList(selection)} ${from.sql} ${where.sql} ${order} LIMIT ? OFFSET ?`;
  const countSql = `SELECT count(*) AS n ${countFrom.sql} ${where.sql}`;
  // What a page row can weigh, by the workspace's limits: a short page is read in one call when its
  // rows cannot pass what is left of the answer budget (db/sql-session.ts).
  // Without shortcuts the page is read row by row, whatever its rows can weigh.
  const rowMost = ctx.state.shortcuts ? rowBytesAtMost(selection.columns, ctx.state.ws.limits.maxValueBytes) : undefined;
  const run = (ctx: RequestContext, values: PlanValues, bound: Pick<Where, 'params'> = where) => {
    const { limit, offset, notices } = paging(ctx, values);
    const rows = limit === 0 ? [] : ctx.sql.all(pageSql, [...from.params, ...bound.params, limit, offset], rowMost === undefined ? undefined : limit * rowMost);
    // A short, non-empty page (or a short first page) already tells how many records match.
    const knownTotal = rows.length < limit && (rows.length > 0 || offset === 0);
    const filtered = knownTotal ? offset + rows.length : (ctx.sql.get(countSql, [...countFrom.params, ...bound.params])?.n as number);
    const cuts: NestedCuts = new Map();
    const records = toRecords(ctx, selection, rows, true, cuts);
    notices.push(...nestedNotices(cuts, ctx.state.ws.limits.maxNested));
    return { answer: pageOutput({ payload: records, extras: { filtered, display: records.length } }, { limit, offset, notices, draw: values.draw }), records };
  };
  return { selection, where, run };
}

/** A page's extras after the processor's own: the paging, the client's draw, the clamp notice. */
function pageOutput(output: ProcessorOutput, paged: { limit: number; offset: number; notices: string[]; draw: number | undefined }): ProcessorOutput {
  const extras: Extras = { ...output.extras, limit: paged.limit, offset: paged.offset };
  if (paged.draw !== undefined) extras.draw = paged.draw;
  if (paged.notices.length > 0) extras.notices = paged.notices;
  return { payload: output.payload, extras };
}

/**
 * A plan for the caller's grants on every model `reach` entered (query/plan-cache.ts). `bind` answers
 * null for values whose WHERE has another form than the plan's (its SQL text would differ).
 */
function planOf(ctx: RequestContext, reach: ModelReach, bind: (ctx: RequestContext, values: PlanValues) => (() => ProcessorOutput) | null): QueryPlan {
  const grants = new PlanGrants(ctx, reach.models);
  return { admits: (caller) => grants.holdFor(caller), bind: (caller, meta) => bind(caller, planValues(meta)) };
}

export function retrieveOne(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, data: Record<string, JsonValue>): ProcessorOutput {
  const scopes = ctx.state.access.check(model.permissions, 'retrieve', ctx.user, model.key);
  const errors = new ErrorList();
  const selection = errors.check(() => selectionFor(ctx, model, meta, data)) as Selection;
  // A bad selection is reported with uniqueObject's errors, if any; otherwise the read reports those.
  if (!errors.empty) errors.check(() => compileWhere(ctx.state.ws, model, { ...meta, scopes }, new JoinSet(new ModelReach(ctx, model, scopes))));
  errors.throwIfAny();
  const one = compileOne(ctx, model, meta, selection, scopes);
  // The plan keeps the compiled statement, not this request's reach (and so its caller).
  const { statement, read } = one;
  const answer = (c: RequestContext, bound: OneStatement): ProcessorOutput => {
    const cuts: NestedCuts = new Map();
    const record = read(c, bound, cuts);
    const notices = nestedNotices(cuts, c.state.ws.limits.maxNested);
    return { payload: record, intent: 'retrieve', extras: notices.length > 0 ? { notices } : {} };
  };
  const output = answer(ctx, statement(entryValues(meta)) as OneStatement);
  if (one.plannable) {
    output.plan = planOf(ctx, one.reach, (c, values) => {
      const bound = statement(values, true);
      return bound && (() => answer(c, bound));
    });
  }
  return output;
}

export function count(ctx: RequestContext, model: ModelDef, meta: ParsedMeta): ProcessorOutput {
  const scopes = ctx.state.access.check(model.permissions, 'retrieve', ctx.user, model.key);
  const reach = new ModelReach(ctx, model, scopes);
  const joins = new JoinSet(reach);
  const where = compileWhere(ctx.state.ws, model, { ...meta, scopes }, joins);
  const from = joins.from();
  const sql = `SELECT count(*) AS n ${from.sql} ${where.sql}`;
  const run = (ctx: RequestContext, bound: Pick<Where, 'params'>): ProcessorOutput => ({
    payload: { count: ctx.sql.get(sql, [...from.params, ...bound.params])?.n as number },
    extras: {},
  });
  const output = run(ctx, where);
  const { rebind } = where;
  if (rebind) {
    output.plan = planOf(ctx, reach, (c, values) => {
      const bound = rebind(values);
      if (bound.form !== where.form) return null;
      return () => run(c, bound);
    });
  }
  return output;
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
  /** Collects the reverse relations cut at limits.maxNested, for the answer's notices. */
  cuts?: NestedCuts,
): JsonObject {
  const one = compileOne(ctx, model, meta, selection, scopes, selectionPath);
  return one.read(ctx, one.statement(entryValues(meta)) as OneStatement, cuts);
}

/**
 * readOne compiled once, to read with a request's values. `uniqueObject: {"id": n}` alone (no filter,
 * exclude or row scope) is the most common read of all (every mutation reads its record back that
 * way): it needs no WHERE compiled, only its id; a plan of that shape takes only integer ids.
 */
function compileOne(
  ctx: RequestContext,
  model: ModelDef,
  meta: Pick<ParsedMeta, 'uniqueObject' | 'filter' | 'exclude'>,
  selection: Selection,
  scopes: Scopes,
  selectionPath: ErrorPath = [],
) {
  if (!meta.uniqueObject || Object.keys(meta.uniqueObject).length === 0) invalidRequest('This intent needs __meta__.uniqueObject', ['__meta__', 'unique_object']);
  const reach = new ModelReach(ctx, model, scopes);
  enterSelection(reach, selection, selectionPath);
  // Without shortcuts a read by id compiles its WHERE as any other.
  const byId = ctx.state.shortcuts && byIdShape(meta, scopes);
  const id = byId ? plainId(entryValues(meta).uniqueObject[0]) : null;
  // Compiled only when the id alone does not do (as the full path always did).
  const where =
    id === null
      ? (() => {
          const joins = new JoinSet(reach);
          const clause = compileWhere(ctx.state.ws, model, { uniqueObject: meta.uniqueObject, filter: meta.filter, exclude: meta.exclude, scopes }, joins);
          const from = joins.from();
          return { clause, sql: `SELECT ${selectList(selection)} ${from.sql} ${clause.sql} LIMIT 2`, fromParams: from.params };
        })()
      : null;
  /**
   * The statement and parameters for these values (never null unless `planned`). On a plan, null for
   * values whose WHERE has another form than the plan's, and a throw for a value it does not take.
   */
  const statement = (values: EntryValues, planned = false): OneStatement | null => {
    const valueId = byId ? plainId(values.uniqueObject[0]) : null;
    if (valueId !== null) return { sql: byIdSql(model, selection), params: [valueId], byKey: true };
    if (where && !planned) return { sql: where.sql, params: [...where.fromParams, ...where.clause.params] };
    if (where?.clause.rebind) {
      const bound = where.clause.rebind(values);
      return bound.form === where.clause.form ? { sql: where.sql, params: [...where.fromParams, ...bound.params] } : null;
    }
    // A plan made for integer ids, given another value: the full path answers it.
    return invalidRequest('uniqueObject.id is not an integer', ['__meta__', 'unique_object']);
  };
  const read = (ctx: RequestContext, { sql, params, byKey }: OneStatement, cuts?: NestedCuts): JsonObject => {
    // A primary key matches one row at most: read it alone (the statement stays the one the full
    // query would run, LIMIT 2 included, so the same text is prepared and traced).
    let rows: Row[];
    if (byKey) {
      const row = ctx.sql.get(sql, params);
      rows = row ? [row] : [];
    } else rows = ctx.sql.all(sql, params);
    if (rows.length === 0) fail('not_found', `No ${model.key} matches uniqueObject`, { path: ['__meta__', 'unique_object'] });
    if (rows.length > 1) invalidRequest(`uniqueObject matches more than one ${model.key}; it is not unique`, ['__meta__', 'unique_object']);
    return toRecords(ctx, selection, rows, true, cuts)[0] as JsonObject;
  };
  return { reach, statement, read, plannable: byId || Boolean(where?.clause.rebind) };
}

/** What readOne runs for a request's values; `byKey` when it reads by the primary key. */
interface OneStatement {
  sql: string;
  params: SqlParam[];
  byKey?: boolean;
}

/** `uniqueObject: {"id": …}` alone, with no filter, exclude or row scope. */
function byIdShape(meta: Pick<ParsedMeta, 'uniqueObject' | 'filter' | 'exclude'>, scopes: Scopes): boolean {
  if (scopes !== null || meta.filter !== undefined || meta.exclude !== undefined) return false;
  const unique = meta.uniqueObject as Record<string, JsonValue>;
  let keys = 0;
  for (const _ in unique) keys++;
  return keys === 1 && Object.hasOwn(unique, 'id');
}

function plainId(id: JsonValue | undefined): number | null {
  return Number.isSafeInteger(id) ? (id as number) : null;
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
