/**
 * Compiles `filter`, `exclude` and `uniqueObject` entries into SQL conditions (docs/protocol.md "`__meta__` keys").
 * Names resolve against the workspace; every value is a bound parameter, and `%`/`_`/`*` in values
 * are escaped so they match literally.
 */
import type { FilterLookup, JsonValue } from '../../shared/protocol.ts';
import { ErrorList, fail, type ErrorPath } from '../errors.ts';
import type { SqlParam } from '../db/sql-session.ts';
import { toStored, valueProblem } from '../workspace/field-codec.ts';
import type { FieldDef, ModelDef, Workspace } from '../workspace/types.ts';
import { resolvePath, type ColumnSource } from './paths.ts';
import { TEXT_LOOKUPS, textMatch } from './text-match.ts';

export interface Conditions {
  sql: string[];
  params: SqlParam[];
  /** The form of `sql`: one token per entry for the branch its value took (see Binding). */
  form: string;
  /** Each entry resolved, for other values of it (a query plan, plan-cache.ts), in the entries' order. */
  bound: BoundCondition[];
}

/**
 * What compiling an entry's value adds besides its SQL: its parameters, and its form. The form is the
 * branch the SQL builder took on the value (null or not, isnull's truth, ...), written by the builder
 * itself at each branch, so two values of one entry give the same SQL text exactly when they give the
 * same form (filter-form.test.ts checks every branch). A query plan runs its SQL for another request's
 * values only when their form is the plan's (plan-cache.ts).
 */
export interface Binding {
  params: SqlParam[];
  form: string[];
}

/** One resolved entry: its SQL, parameters and form for a value, checked as the first compile checked it. */
export type BoundCondition = (value: JsonValue, out: Binding) => string;

const TEXT_TYPES = new Set(['string', 'text', 'date', 'datetime']);
const ORDERED_TYPES = new Set(['string', 'text', 'date', 'datetime', 'integer', 'number', 'ref']);
const ORDER_LOOKUPS = new Set<FilterLookup>(['gt', 'gte', 'lt', 'lte', 'range']);

/** Every lookup a field of this type accepts (also used by `system.Schema.describe`). */
export function lookupsFor(field: FieldDef): FilterLookup[] {
  return [...lookupsOfType(field.type)];
}

// Every filter entry checks its lookup: the lists are built once per field type, not per entry.
const lookupsByType = new Map<FieldDef['type'], ReadonlySet<FilterLookup>>();

function lookupsOfType(type: FieldDef['type']): ReadonlySet<FilterLookup> {
  let lookups = lookupsByType.get(type);
  if (!lookups) {
    const all: FilterLookup[] = ['exact', 'ne', 'in', 'isnull'];
    if (TEXT_TYPES.has(type)) all.push(...TEXT_LOOKUPS);
    if (ORDERED_TYPES.has(type)) all.push(...ORDER_LOOKUPS);
    lookups = new Set(type === 'json' || type === 'file' ? ['exact', 'isnull'] : all);
    lookupsByType.set(type, lookups);
  }
  return lookups;
}

export function compileConditions(
  ws: Workspace,
  model: ModelDef,
  entries: Record<string, JsonValue>,
  columns: ColumnSource,
  section: string,
): Conditions {
  const out: Conditions = { sql: [], params: [], form: '', bound: [] };
  const forms: string[] = [];
  // Every unknown field, lookup and ill-typed value is reported, each entry with its own path.
  const errors = new ErrorList();
  for (const [key, value] of Object.entries(entries)) {
    errors.check(() => {
      const path: ErrorPath = [section, key];
      const resolved = resolvePath(ws, model, key, { lookups: true, errorPath: path });
      const lookup = resolved.lookup ?? 'exact';
      // Errors name the field (`priority`) and keep the key as sent in their path (`priority__gte`).
      const site = { field: resolved.path, path };
      if (!lookupsOfType(resolved.field.type).has(lookup)) {
        fail('invalid_lookup', `Lookup "${lookup}" does not apply to ${resolved.field.type} field "${resolved.path}"`, site);
      }
      const column = columns.column(resolved, site);
      const bound: BoundCondition = (v, binding) => condition(column, resolved.field, lookup, v, { key, ...site }, binding);
      // The entry's parameters go in only with its SQL: a failing entry leaves none behind.
      const binding: Binding = { params: [], form: [] };
      out.sql.push(bound(value, binding));
      out.params.push(...binding.params);
      forms.push(...binding.form);
      out.bound.push(bound);
    });
  }
  errors.throwIfAny();
  out.form = formKey(forms);
  return out;
}

/** Where a filter entry's value errors point: its key as sent (message, `path`) and its field (`field`). */
export interface EntryAt {
  key: string;
  field: string;
  path: ErrorPath;
}

/** The form key of a list of entry forms (tokens never hold the separator). */
export function formKey(forms: string[]): string {
  return forms.join(',');
}

/**
 * An entry's SQL for a value. Every branch on the value names itself in `out.form` (`took`) before it
 * returns: a branch that changes the SQL text without a token of its own fails filter-form.test.ts.
 */
function condition(column: string, field: FieldDef, lookup: FilterLookup, value: JsonValue, at: EntryAt, out: Binding): string {
  const { params } = out;
  const took = (form: string, sql: string): string => {
    out.form.push(form);
    return sql;
  };
  const bind = (v: JsonValue): string => {
    params.push(sqlValue(field, v, at));
    return '?';
  };
  switch (lookup) {
    case 'exact':
      if (value === null) return took('exact:null', `${column} IS NULL`);
      return took('exact:value', `${column} = ${bind(value)}`);
    case 'ne':
      if (value === null) return took('ne:null', `${column} IS NOT NULL`);
      return took('ne:value', `${column} IS NOT ${bind(value)}`);
    case 'isnull':
      if (typeof value !== 'boolean') wrongType(at, 'isnull takes true or false');
      if (value) return took('isnull:true', `${column} IS NULL`);
      return took('isnull:false', `${column} IS NOT NULL`);
    case 'in': {
      if (!Array.isArray(value)) wrongType(at, 'in takes an array');
      const items = (value as JsonValue[]).map((item) => sqlValue(field, item, at));
      params.push(JSON.stringify(items));
      // One parameter whatever the array's length (an empty one included), so the statement is
      // prepared once and its form does not depend on the length.
      return took('in:list', `${column} IN (SELECT value FROM json_each(?))`);
    }
    case 'range': {
      if (!Array.isArray(value) || value.length !== 2) wrongType(at, 'range takes [low, high]');
      const [low, high] = value as JsonValue[];
      return took('range:pair', `${column} BETWEEN ${bind(low as JsonValue)} AND ${bind(high as JsonValue)}`);
    }
    case 'gt':
      return took('gt:value', `${column} > ${bind(value)}`);
    case 'gte':
      return took('gte:value', `${column} >= ${bind(value)}`);
    case 'lt':
      return took('lt:value', `${column} < ${bind(value)}`);
    case 'lte':
      return took('lte:value', `${column} <= ${bind(value)}`);
    default:
      return took(`${lookup}:text`, textMatch(column, lookup, text(value, at), params));
  }
}

function text(value: JsonValue, at: EntryAt): string {
  if (typeof value !== 'string') wrongType(at, 'this lookup takes a string');
  return value as string;
}

function wrongType(at: EntryAt, message: string): never {
  return fail('invalid_request', `Wrong value for "${at.key}": ${message}`, { field: at.field, path: at.path });
}

/**
 * Checks a filter value against its field's type and converts it for binding, with the codec that
 * stores values: a date-time is compared in its stored (UTC) form, whatever offset it was given in.
 */
export function sqlValue(field: FieldDef, value: JsonValue, at: EntryAt): SqlParam {
  if (field.type === 'json' || field.type === 'file') return wrongType(at, `${field.type} fields can only be compared with null`);
  const expected = valueProblem(field.type, value);
  if (expected) wrongType(at, `${field.name} takes ${expected}`);
  return toStored(field.type, value);
}
