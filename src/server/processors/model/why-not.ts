/**
 * "Why not" (docs/protocol.md "Why not"): for a retrieve, its caller (or the user an admin sees as)
 * and one record id, every rule that keeps that record out of the answer.
 *
 * Nothing here restates a rule. Each part of the answer's WHERE is compiled by the code that compiles
 * it for the retrieve (the permission check, ModelReach and its joins, compileConditions for filter,
 * exclude and row scope entries, compileSearch), and then evaluated on the one record, part by part:
 * the record is in the answer exactly when every part holds, and each part that does not is a reason.
 * Paging (limit, offset) is not a rule: a record that matches is in the answer, on some page.
 */
import type { JsonObject, JsonValue } from '../../../shared/protocol.ts';
import type { AccessControl, ProcessorOutput, RequestContext, Scopes } from '../../context.ts';
import type { SqlParam } from '../../db/sql-session.ts';
import { JqlFailure } from '../../errors.ts';
import { compileConditions } from '../../query/filter.ts';
import { JoinSet } from '../../query/joins.ts';
import type { ParsedMeta } from '../../query/meta.ts';
import { compileOrdering } from '../../query/ordering.ts';
import { resolvePath } from '../../query/paths.ts';
import { ModelReach, type Reader } from '../../query/reach.ts';
import { compileSearch } from '../../query/search.ts';
import { fromStored } from '../../workspace/field-codec.ts';
import type { ModelDef, Permissions } from '../../workspace/types.ts';
import { enterSelection } from '../../query/selection.ts';
import { selectionFor } from './read.ts';
import { compileWhere } from './where.ts';

export type WhyNotRule = 'not_found' | 'permission' | 'reference_path' | 'refused' | 'row_scope' | 'filter' | 'exclude' | 'search';

export interface WhyNotReason extends JsonObject {
  rule: WhyNotRule;
  message: string;
}

const DEFAULT_READ_ROLES = ['authenticated'];

/** The explanation for `meta.whyNot.id`, as the answer's payload. */
export function whyNot(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, data: Record<string, JsonValue>): ProcessorOutput {
  const id = (meta.whyNot as { id: number }).id;
  const reasons = explain(ctx, model, meta, data, id);
  const payload: JsonObject = {
    namespace: model.key,
    id,
    user: ctx.user?.username ?? null,
    visible: reasons.length === 0,
    reasons,
  };
  return { payload, intent: 'whyNot', extras: {} };
}

function explain(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, data: Record<string, JsonValue>, id: number): WhyNotReason[] {
  const { ws } = ctx.state;
  const exists = ctx.sql.get(`SELECT 1 AS one FROM "${model.table.replaceAll('"', '""')}" WHERE "id" = ?`, [id]);
  if (!exists) return [{ rule: 'not_found', message: `There is no ${model.key} with id ${id}` }];

  // 1. The model's permission for the intent: the check every retrieve starts with.
  const denied = new Map<string, Permissions | null>();
  const reader = readerRecordingDenials(ctx, denied);
  const grant = ctx.state.access.allows(model.permissions, 'retrieve', ctx.user);
  if (!grant.allowed) return [permissionReason(ctx, model, model.permissions)];

  // 2. The query as this caller: every model its selection, filter, exclude and ordering enter.
  const reach = new ModelReach(reader, model, grant.scopes);
  const joins = new JoinSet(reach);
  let parts: Parts;
  try {
    // The retrieve's own clause first: a query it refuses is refused here with the same errors.
    enterSelection(reach, selectionFor(ctx, model, meta, data));
    compileWhere(ws, model, { ...meta, scopes: grant.scopes }, joins);
    parts = compileParts(ctx, model, meta, grant.scopes, joins);
    compileOrdering(ws, model, meta.ordering, joins);
  } catch (error) {
    if (!(error instanceof JqlFailure)) throw error;
    return refusals(ctx, error, denied);
  }

  // 3. Each part on the record, under this caller's joins (a reference outside its scope is NULL) and,
  // for a part that fails, under unrestricted joins: that difference is a reference path.
  const open = new JoinSet(new ModelReach(unrestricted(ctx), model, null));
  const openParts = compileParts(ctx, model, meta, null, open);
  const holds = evaluate(ctx, joins, parts, id);
  const holdsOpen = evaluate(ctx, open, openParts, id);
  const reasons: WhyNotReason[] = [];
  parts.filter.forEach((part, i) => {
    if (holds.filter[i]) return;
    const value = valueOf(ctx, open, model, part.key, id);
    if (holdsOpen.filter[i]) {
      reasons.push({
        rule: 'reference_path',
        message: `filter "${part.key}" reads through a reference to a record outside your row scope of its model, which reads as missing`,
        entry: part.key,
        expected: part.value,
        actual: value,
      });
    } else {
      reasons.push({ rule: 'filter', message: `filter "${part.key}" does not match: the record has ${show(value)}, the filter asks ${show(part.value)}`, entry: part.key, expected: part.value, actual: value });
    }
  });
  if (parts.exclude.length > 0 && holds.exclude) {
    const entries = Object.fromEntries(parts.exclude.map((p) => [p.key, p.value]));
    reasons.push({ rule: 'exclude', message: `exclude ${JSON.stringify(entries)} matches the record (every entry of exclude holds for it)`, entries });
  }
  if (parts.search && !holds.search) {
    reasons.push({ rule: 'search', message: `search "${meta.search}" does not find the record`, term: meta.search ?? '' });
  }
  if (parts.scopes && !holds.scopes.some(Boolean)) reasons.push(scopeReason(ctx, model, open, parts.scopes, holds.scopeEntries, id));
  return reasons;
}

interface Entry {
  key: string;
  value: JsonValue;
  sql: string;
  params: SqlParam[];
}

interface Parts {
  filter: Entry[];
  exclude: Entry[];
  search: { sql: string; params: SqlParam[] } | null;
  /** Each row scope alternative's entries; null when the caller reaches every row. */
  scopes: Array<{ scope: Record<string, JsonValue>; entries: Entry[] }> | null;
}

/** Every part of the retrieve's WHERE (processors/model/where.ts), one entry at a time. */
function compileParts(ctx: RequestContext, model: ModelDef, meta: ParsedMeta, scopes: Scopes, joins: JoinSet): Parts {
  const { ws } = ctx.state;
  const entries = (section: string, source: Record<string, JsonValue> | undefined, keep: (v: JsonValue) => boolean = () => true): Entry[] =>
    Object.entries(source ?? {})
      .filter(([, value]) => keep(value))
      .map(([key, value]) => {
        const compiled = compileConditions(ws, model, { [key]: value }, joins, section);
        return { key, value, sql: compiled.sql.join(' AND '), params: compiled.params };
      });
  const filter = entries('filter', meta.filter);
  // `exclude: {"field": null}` removes a field from the records, not records (where.ts).
  const exclude = entries('exclude', meta.exclude, (value) => value !== null);
  const searchParams: SqlParam[] = [];
  const searchSql = compileSearch(model, meta.search, searchParams);
  return {
    filter,
    exclude,
    search: searchSql ? { sql: searchSql, params: searchParams } : null,
    scopes: scopes === null ? null : scopes.map((scope) => ({ scope, entries: entries('scope', scope) })),
  };
}

interface Holds {
  filter: boolean[];
  exclude: boolean;
  search: boolean;
  scopes: boolean[];
  scopeEntries: boolean[][];
}

/** Each part's truth on the record, in one statement (a NULL comparison is "no match", as in WHERE). */
function evaluate(ctx: RequestContext, joins: JoinSet, parts: Parts, id: number): Holds {
  const columns: string[] = [];
  const params: SqlParam[] = [];
  const add = (sql: string, sqlParams: SqlParam[]) => {
    columns.push(`IFNULL((${sql}), 0) AS c${columns.length}`);
    params.push(...sqlParams);
    return columns.length - 1;
  };
  const filterAt = parts.filter.map((e) => add(e.sql, e.params));
  const excludeAt = parts.exclude.length > 0 ? add(parts.exclude.map((e) => `(${e.sql})`).join(' AND '), parts.exclude.flatMap((e) => e.params)) : -1;
  const searchAt = parts.search ? add(parts.search.sql, parts.search.params) : -1;
  const scopeAt = (parts.scopes ?? []).map(({ entries }) => ({
    all: entries.length === 0 ? add('1', []) : add(entries.map((e) => `(${e.sql})`).join(' AND '), entries.flatMap((e) => e.params)),
    each: entries.map((e) => add(e.sql, e.params)),
  }));
  if (columns.length === 0) return { filter: [], exclude: false, search: true, scopes: [], scopeEntries: [] };
  const from = joins.from();
  const row = ctx.sql.get(`SELECT ${columns.join(', ')} ${from.sql} WHERE t0."id" = ?`, [...params, ...from.params, id]) ?? {};
  // SELECT's parameters come before FROM's in the text: the order above matches it.
  const truth = (i: number) => i >= 0 && Number(row[`c${i}`]) === 1;
  return {
    filter: filterAt.map(truth),
    exclude: truth(excludeAt),
    search: truth(searchAt),
    scopes: scopeAt.map((s) => truth(s.all)),
    scopeEntries: scopeAt.map((s) => s.each.map(truth)),
  };
}

/** The record's value at a filter key's path (its lookup dropped), read without anyone's row scope. */
function valueOf(ctx: RequestContext, open: JoinSet, model: ModelDef, key: string, id: number): JsonValue {
  const resolved = resolvePath(ctx.state.ws, model, key, { lookups: true, errorPath: [key] });
  const column = open.column({ ...resolved, lookup: null }, { field: resolved.path, path: [key] });
  const from = open.from();
  const row = ctx.sql.get(`SELECT ${column} AS v ${from.sql} WHERE t0."id" = ?`, [...from.params, id]);
  return fromStored(resolved.field.type, row?.v ?? null);
}

function scopeReason(
  ctx: RequestContext,
  model: ModelDef,
  open: JoinSet,
  scopes: NonNullable<Parts['scopes']>,
  entryHolds: boolean[][],
  id: number,
): WhyNotReason {
  const alternatives = scopes.map(({ scope, entries }, i) => ({
    scope,
    failing: entries
      .filter((_, j) => !entryHolds[i]?.[j])
      .map((e) => ({ field: e.key, needs: e.value, has: valueOf(ctx, open, model, e.key, id) })),
  }));
  const first = alternatives[0]?.failing[0];
  const detail = first ? `: it needs ${first.field} = ${show(first.needs)}, the record has ${show(first.has)}` : '';
  return {
    rule: 'row_scope',
    message: `The record is outside ${ctx.user ? `${ctx.user.username}'s` : 'an anonymous caller\'s'} row scope of ${model.key}${detail}`,
    alternatives: alternatives as unknown as JsonValue,
  };
}

function permissionReason(ctx: RequestContext, model: ModelDef, permissions: Permissions | null): WhyNotReason {
  const needs = permissions?.intents.retrieve ?? DEFAULT_READ_ROLES;
  const who = ctx.user ? `${ctx.user.username} (roles: ${ctx.user.roles.join(', ') || 'none'})` : 'an anonymous caller';
  return {
    rule: 'permission',
    message: `${who} may not retrieve ${model.key}: it needs one of the roles ${needs.join(', ')}`,
    model: model.key,
    needs: [...needs],
    has: ctx.user ? [...ctx.user.roles] : [],
  };
}

/** The query as a whole was refused for this caller: a model its paths enter, or a bad entry. */
function refusals(ctx: RequestContext, error: JqlFailure, denied: Map<string, Permissions | null>): WhyNotReason[] {
  const reasons: WhyNotReason[] = [];
  for (const [key, permissions] of denied) {
    const permission = permissionReason(ctx, { key } as ModelDef, permissions);
    reasons.push({ ...permission, rule: 'reference_path', message: `The query reaches ${key} through a reference, and ${permission.message}` });
  }
  if (reasons.length > 0) return reasons;
  return error.errors.map((e) => ({ rule: 'refused', message: e.message, code: e.code, ...(e.path ? { path: e.path } : {}) }));
}

/** The caller as ModelReach reads it, noting each model it is refused (the same `allows` decides). */
function readerRecordingDenials(ctx: RequestContext, denied: Map<string, Permissions | null>): Reader {
  const byPermissions = new Map<Permissions | null, string>();
  for (const model of ctx.state.ws.models.values()) if (model.permissions) byPermissions.set(model.permissions, model.key);
  const access: AccessControl = {
    ...ctx.state.access,
    allows(permissions, intent, user) {
      const answer = ctx.state.access.allows(permissions, intent, user);
      if (!answer.allowed) denied.set(byPermissions.get(permissions) ?? 'a model', permissions);
      return answer;
    },
  };
  return { state: { ws: ctx.state.ws, access }, user: ctx.user };
}

/** Reads every row of every model: the record's true values, to tell a reference path from a value. */
function unrestricted(ctx: RequestContext): Reader {
  const all = { allowed: true, scopes: null };
  const access: AccessControl = { ...ctx.state.access, allows: () => all };
  return { state: { ws: ctx.state.ws, access }, user: ctx.user };
}

function show(value: JsonValue): string {
  return JSON.stringify(value);
}
