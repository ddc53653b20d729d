// Compiles filter/exclude/uniqueObject/scope entries on document paths (docs/protocol.md "`__meta__` keys", "Processors"). Values
// and JSON paths are bound parameters. Comparisons check the JSON type as well as the value, so a
// string never matches a number, `true` never matches 1, and `gt` never orders strings above numbers.
import type { FilterLookup, JsonValue } from '../../../shared/protocol.ts';
import type { SqlParam } from '../../db/sql-session.ts';
import { ErrorList, fail, type ErrorPath } from '../../errors.ts';
import { TEXT_LOOKUPS, textMatch } from '../../query/text-match.ts';
import { splitLookup, targetOf, type ReservedKey, type Target } from './paths.ts';

export interface Conditions {
  sql: string[];
  params: SqlParam[];
}

export function compileConditions(entries: Record<string, JsonValue>, section: string): Conditions {
  const out: Conditions = { sql: [], params: [] };
  // Every bad entry is reported with its path; a failing entry leaves no parameter behind.
  const errors = new ErrorList();
  for (const [key, value] of Object.entries(entries)) {
    errors.check(() => {
      const errorPath: ErrorPath = [section, key];
      const { path, lookup } = splitLookup(key, errorPath);
      const target = targetOf(path, errorPath);
      const where = { key, field: path, errorPath };
      const lookupName = lookup ?? 'exact';
      const params: SqlParam[] = [];
      out.sql.push(target.kind === 'column' ? columnCondition(target.column, lookupName, value, params, where) : documentCondition(target, lookupName, value, params, where));
      out.params.push(...params);
    });
  }
  errors.throwIfAny();
  return out;
}

/** An entry's key as sent (messages, `path`) and the document path it filters on (`field`). */
interface Where {
  key: string;
  field: string;
  errorPath: ErrorPath;
}

function wrongType(where: Where, message: string): never {
  return fail('invalid_request', `Wrong value for "${where.key}": ${message}`, { field: where.field, path: where.errorPath });
}

function documentCondition(target: Extract<Target, { kind: 'document' }>, lookup: FilterLookup, value: JsonValue, params: SqlParam[], where: Where): string {
  // Each helper pushes its parameter as the SQL text is built, so parameters stay in SQL order.
  const extract = (): string => {
    params.push(target.jsonPath);
    return 'json_extract(d.body, ?)';
  };
  const type = (): string => {
    params.push(target.jsonPath);
    return 'json_type(d.body, ?)';
  };
  // `->` renders the value as JSON text exactly as JSON.stringify wrote it, type included.
  const json = (): string => {
    params.push(target.jsonPath);
    return '(d.body -> ?)';
  };
  const bind = (param: SqlParam): string => {
    params.push(param);
    return '?';
  };
  switch (lookup) {
    case 'exact':
      return value === null ? `${extract()} IS NULL` : `${json()} = ${bind(JSON.stringify(value))}`;
    case 'ne':
      return value === null ? `${extract()} IS NOT NULL` : `${json()} IS NOT ${bind(JSON.stringify(value))}`;
    case 'isnull':
      if (typeof value !== 'boolean') wrongType(where, 'isnull takes true or false');
      return `${extract()} ${value ? 'IS NULL' : 'IS NOT NULL'}`;
    case 'in': {
      if (!Array.isArray(value)) wrongType(where, 'in takes an array');
      const items = (value as JsonValue[]).filter((item) => item !== null);
      // One parameter whatever the array's length, so the statement is prepared once.
      const sql = `${json()} IN (SELECT j.value FROM json_each(${bind(JSON.stringify(items.map((item) => JSON.stringify(item))))}) AS j)`;
      return items.length < (value as JsonValue[]).length ? `(${sql} OR ${extract()} IS NULL)` : sql;
    }
    case 'range': {
      if (!Array.isArray(value) || value.length !== 2) wrongType(where, 'range takes [low, high]');
      const [low, high] = value as JsonValue[];
      const kind = orderedKind(low as JsonValue, where);
      if (orderedKind(high as JsonValue, where) !== kind) wrongType(where, 'range takes two numbers or two strings');
      return `(${typeCheck(type(), kind)} AND ${extract()} BETWEEN ${bind(low as SqlParam)} AND ${bind(high as SqlParam)})`;
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return `(${typeCheck(type(), orderedKind(value, where))} AND ${extract()} ${COMPARE[lookup]} ${bind(value as SqlParam)})`;
    default:
      if (typeof value !== 'string') wrongType(where, 'this lookup takes a string');
      return `(${type()} = 'text' AND ${textMatch(extract(), lookup, value as string, params)})`;
  }
}

const COMPARE = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function orderedKind(value: JsonValue, where: Where): 'number' | 'string' {
  if (typeof value === 'number' || typeof value === 'string') return typeof value as 'number' | 'string';
  return wrongType(where, 'this lookup takes a number or a string');
}

function typeCheck(type: string, kind: 'number' | 'string'): string {
  return kind === 'number' ? `${type} IN ('integer', 'real')` : `${type} = 'text'`;
}

/** `id` is an integer and the timestamps ISO-8601 text, so they check values the way model fields do. */
function columnCondition(column: ReservedKey, lookup: FilterLookup, value: JsonValue, params: SqlParam[], where: Where): string {
  const sqlColumn = `d."${column}"`;
  const isId = column === 'id';
  const scalar = (item: JsonValue): SqlParam => {
    if (isId ? !Number.isSafeInteger(item) : typeof item !== 'string') wrongType(where, `${column} takes ${isId ? 'an integer' : 'a string'}`);
    return item as SqlParam;
  };
  const bind = (item: JsonValue): string => {
    params.push(scalar(item));
    return '?';
  };
  if (isId && TEXT_LOOKUPS.has(lookup)) fail('invalid_lookup', `Lookup "${lookup}" does not apply to "id"`, { field: where.field, path: where.errorPath });
  switch (lookup) {
    case 'exact':
      return value === null ? `${sqlColumn} IS NULL` : `${sqlColumn} = ${bind(value)}`;
    case 'ne':
      return value === null ? `${sqlColumn} IS NOT NULL` : `${sqlColumn} IS NOT ${bind(value)}`;
    case 'isnull':
      if (typeof value !== 'boolean') wrongType(where, 'isnull takes true or false');
      return `${sqlColumn} ${value ? 'IS NULL' : 'IS NOT NULL'}`;
    case 'in':
      if (!Array.isArray(value)) wrongType(where, 'in takes an array');
      params.push(JSON.stringify((value as JsonValue[]).filter((item) => item !== null).map(scalar)));
      return `${sqlColumn} IN (SELECT j.value FROM json_each(?) AS j)`;
    case 'range': {
      if (!Array.isArray(value) || value.length !== 2) wrongType(where, 'range takes [low, high]');
      const [low, high] = value as JsonValue[];
      return `${sqlColumn} BETWEEN ${bind(low as JsonValue)} AND ${bind(high as JsonValue)}`;
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return `${sqlColumn} ${COMPARE[lookup]} ${bind(value)}`;
    default:
      return textMatch(sqlColumn, lookup, scalar(value) as string, params);
  }
}
