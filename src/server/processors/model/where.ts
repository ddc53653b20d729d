/**
 * The WHERE clause of a model read or write: filter AND NOT exclude AND search AND row scope.
 * `exclude` follows Django: a record whose value is NULL does not match an entry and stays.
 */
import type { JsonValue } from '../../../shared/protocol.ts';
import type { Scopes } from '../../context.ts';
import type { SqlParam } from '../../db/sql-session.ts';
import { ErrorList } from '../../errors.ts';
import { compileConditions, formKey, type Binding, type Conditions } from '../../query/filter.ts';
import type { JoinSet } from '../../query/joins.ts';
import { compileScopes } from '../../query/scope.ts';
import type { EntryValues } from '../../query/plan-values.ts';
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
  /**
   * The form of `sql`, from the entries' compilers (query/filter.ts Binding): two sets of values of the
   * same entries give the same SQL text exactly when they give the same form.
   */
  form: string;
  /**
   * The same clause for other values of the same entries (a query plan, query/plan-cache.ts): the
   * values of uniqueObject, filter and the non-null exclude entries, in their order. Its SQL is the
   * plan's only when its `form` is the plan's. Absent when the clause depends on more than those
   * values (a search term).
   */
  rebind?: (values: EntryValues) => Where;
}

export function compileWhere(ws: Workspace, model: ModelDef, input: WhereInput, joins: JoinSet): Where {
  const sections: Array<{ name: keyof EntryValues; conditions: Conditions; wrap: (sql: string) => string }> = [];
  const plain = (sql: string) => sql;
  // uniqueObject, filter, exclude and search each report all their errors, and together too.
  const errors = new ErrorList();
  const { uniqueObject, filter, exclude } = input;
  if (uniqueObject) errors.check(() => sections.push({ name: 'uniqueObject', conditions: compileConditions(ws, model, uniqueObject, joins, 'unique_object'), wrap: plain }));
  if (filter) errors.check(() => sections.push({ name: 'filter', conditions: compileConditions(ws, model, filter, joins, 'filter'), wrap: plain }));
  if (exclude) {
    const entries = Object.fromEntries(Object.entries(exclude).filter(([, value]) => value !== null));
    errors.check(() => sections.push({ name: 'exclude', conditions: compileConditions(ws, model, entries, joins, 'exclude'), wrap: (sql) => `NOT IFNULL((${sql}), 0)` }));
  }
  const searchParams: SqlParam[] = [];
  let search: string | null = null;
  errors.check(() => {
    search = compileSearch(model, input.search, searchParams);
  });
  errors.throwIfAny();
  const scoped = compileScopes(ws, model, input.scopes, joins);
  // The entries, then the search, then the row scope: the order of the parameters too.
  const assemble = (entries: Array<Pick<Conditions, 'sql' | 'params' | 'form'> & { wrap: (sql: string) => string }>, withSearch: boolean): Where => {
    const parts: string[] = [];
    const params: SqlParam[] = [];
    // The sections are the shape's (plan-shape.ts): only their entries' forms can differ.
    const forms: string[] = [];
    for (const { sql, params: entryParams, form, wrap } of entries) {
      forms.push(form);
      if (sql.length === 0) continue;
      parts.push(wrap(sql.join(' AND ')));
      params.push(...entryParams);
    }
    if (withSearch && search) {
      parts.push(search);
      params.push(...searchParams);
    }
    if (scoped) {
      parts.push(scoped.sql);
      params.push(...scoped.params);
    }
    return { sql: parts.length === 0 ? '' : `WHERE ${parts.join(' AND ')}`, params, form: forms.join(';') };
  };
  const where = assemble(sections.map(({ conditions, wrap }) => ({ ...conditions, wrap })), true);
  if (input.search === undefined) {
    where.rebind = (values) =>
      assemble(
        sections.map(({ name, conditions, wrap }) => {
          const binding: Binding = { params: [], form: [] };
          const list = values[name];
          const sql = conditions.bound.map((bound, i) => bound(list[i] as JsonValue, binding));
          return { sql, params: binding.params, form: formKey(binding.form), wrap };
        }),
        false,
      );
  }
  return where;
}

/** `exclude: {"email": null}` removes the field from returned records. */
export function omittedFields(exclude: Record<string, JsonValue> | undefined): Set<string> {
  const omit = new Set<string>();
  if (exclude) for (const [key, value] of Object.entries(exclude)) if (value === null) omit.add(key);
  return omit;
}
