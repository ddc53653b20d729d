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
  /** Each entry resolved, for other values of it (a query plan, plan-cache.ts), in the entries' order. */
  bound: BoundCondition[];
}

/** One resolved entry: its SQL and parameters for a value, checked as the first compile checked it. */
export type BoundCondition = (value: JsonValue, params: SqlParam[]) => string;

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
  const out: Conditions = { sql: [], params: [], bound: [] };
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
      const bound: BoundCondition = (v, params) => condition(column, resolved.field, lookup, v, { key, ...site }, params);
      // The entry's parameters go in only with its SQL: a failing entry leaves none behind.
      const params: SqlParam[] = [];
      out.sql.push(bound(value, params));
      out.params.push(...params);
      out.bound.push(bound);
    });
  }
  errors.throwIfAny();
  return out;
}

/** Where a filter entry's value errors point: its key as sent (message, `path`) and its field (`field`). */
export interface EntryAt {
  key: string;
  field: string;
  path: ErrorPath;
}

function condition(column: string, field: FieldDef, lookup: FilterLookup, value: JsonValue, at: EntryAt, params: SqlParam[]): string {
  const bind = (v: JsonValue): string => {
    params.push(sqlValue(field, v, at));
    return '?';
  };
  switch (lookup) {
    case 'exact':
      return value === null ? `${column} IS NULL` : `${column} = ${bind(value)}`;
    case 'ne':
      return value === null ? `${column} IS NOT NULL` : `${column} IS NOT ${bind(value)}`;
    case 'isnull':
      if (typeof value !== 'boolean') wrongType(at, 'isnull takes true or false');
      return value ? `${column} IS NULL` : `${column} IS NOT NULL`;
    case 'in': {
      if (!Array.isArray(value)) wrongType(at, 'in takes an array');
      const items = (value as JsonValue[]).map((item) => sqlValue(field, item, at));
      params.push(JSON.stringify(items));
      // One parameter whatever the array's length, so the statement is prepared once.
      return `${column} IN (SELECT value FROM json_each(?))`;
    }
    case 'range': {
      if (!Array.isArray(value) || value.length !== 2) wrongType(at, 'range takes [low, high]');
      const [low, high] = value as JsonValue[];
      return `${column} BETWEEN ${bind(low as JsonValue)} AND ${bind(high as JsonValue)}`;
    }
    case 'gt':
      return `${column} > ${bind(value)}`;
    case 'gte':
      return `${column} >= ${bind(value)}`;
    case 'lt':
      return `${column} < ${bind(value)}`;
    case 'lte':
      return `${column} <= ${bind(value)}`;
    default:
      return textMatch(column, lookup, text(value, at), params);
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
