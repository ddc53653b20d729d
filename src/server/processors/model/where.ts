/**
 * The WHERE clause of a model read or write: filter AND NOT exclude AND search AND row scope.
 * `exclude` follows Django: a record whose value is NULL does not match an entry and stays.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import type { Scopes } from '../../context.ts';
import type { SqlParam } from '../../db/sql-session.ts';
import { ErrorList } from '../../errors.ts';
import { compileConditions } from '../../query/filter.ts';
import type { JoinSet } from '../../query/joins.ts';
import { compileScopes } from '../../query/scope.ts';
import { compileSearch } from '../../query/search.ts';
import type { ModelDef, Workspace } from '../../workspace/types.ts';

export interface WhereInput {
  filter?: Record<string, JsonValue>;
  exclude?: Record<string, JsonValue>;
  uniqueObject?: Record<string, JsonValue>;
  search?: string;
  scopes: Scopes;
}

export interface Where {
  sql: string;
  params: SqlParam[];
}

export function compileWhere(ws: Workspace, model: ModelDef, input: WhereInput, joins: JoinSet): Where {
  const parts: string[] = [];
  const params: SqlParam[] = [];
  const add = (conditions: { sql: string[]; params: SqlParam[] }, wrap: (sql: string) => string): void => {
    if (conditions.sql.length === 0) return;
    parts.push(wrap(conditions.sql.join(' AND ')));
    params.push(...conditions.params);
  };
  // uniqueObject, filter, exclude and search each report all their errors, and together too.
  const errors = new ErrorList();
  const { uniqueObject, filter, exclude } = input;
  if (uniqueObject) errors.check(() => add(compileConditions(ws, model, uniqueObject, joins, 'unique_object'), (sql) => sql));
  if (filter) errors.check(() => add(compileConditions(ws, model, filter, joins, 'filter'), (sql) => sql));
  if (exclude) {
    const entries = Object.fromEntries(Object.entries(exclude).filter(([, value]) => value !== null));
    errors.check(() => add(compileConditions(ws, model, entries, joins, 'exclude'), (sql) => `NOT IFNULL((${sql}), 0)`));
  }
  errors.check(() => {
    const search = compileSearch(model, input.search, params);
    if (search) parts.push(search);
  });
  errors.throwIfAny();
  const scoped = compileScopes(ws, model, input.scopes, joins);
  if (scoped) {
    parts.push(scoped.sql);
    params.push(...scoped.params);
  }
  return { sql: parts.length === 0 ? '' : `WHERE ${parts.join(' AND ')}`, params };
}

/** `exclude: {"email": null}` removes the field from returned records. */
export function omittedFields(exclude: Record<string, JsonValue> | undefined): Set<string> {
  const omit = new Set<string>();
  if (exclude) for (const [key, value] of Object.entries(exclude)) if (value === null) omit.add(key);
  return omit;
}
