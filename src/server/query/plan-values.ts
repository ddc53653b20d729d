/**
 * The values a query plan binds (plan-cache.ts), read from a query's `__meta__` as sent: the values of
 * its uniqueObject, filter and exclude entries in their order, and limit, offset and draw checked
 * with parseMeta's own rule. Everything else of the query is its shape (plan-shape.ts).
 */
import type { JsonValue } from '../../shared/protocol.ts';
import { invalidRequest } from '../errors.ts';
import { pagingValue } from './meta.ts';
import { isPlainObject } from './normalize.ts';

/** The values of a query's entries, by section, in the entries' order (exclude: its non-null ones). */
export interface EntryValues {
  uniqueObject: JsonValue[];
  filter: JsonValue[];
  exclude: JsonValue[];
}

export interface PlanValues extends EntryValues {
  limit?: number;
  offset?: number;
  draw?: number;
}

/** The entry values of a parsed query, in the same order as `planValues` reads them from the raw one. */
export function entryValues(input: { uniqueObject?: Record<string, JsonValue>; filter?: Record<string, JsonValue>; exclude?: Record<string, JsonValue> }): EntryValues {
  return {
    uniqueObject: input.uniqueObject ? Object.values(input.uniqueObject) : [],
    filter: input.filter ? Object.values(input.filter) : [],
    exclude: input.exclude ? Object.values(input.exclude).filter((value) => value !== null) : [],
  };
}

/** Throws (a coded error) where parseMeta would: the request then takes the full path, which reports it. */
export function planValues(meta: Record<string, JsonValue>): PlanValues {
  const values: PlanValues = {
    uniqueObject: entriesOf(meta, 'unique_object', 'uniqueObject'),
    filter: entriesOf(meta, 'filter'),
    exclude: entriesOf(meta, 'exclude').filter((value) => value !== null),
  };
  for (const key of ['limit', 'offset', 'draw'] as const) if (meta[key] !== undefined) values[key] = pagingValue(key, meta[key] as JsonValue);
  return values;
}

function entriesOf(meta: Record<string, JsonValue>, key: string, other?: string): JsonValue[] {
  // Both spellings at once collapse into one when parsed: not for a plan to guess which.
  if (other !== undefined && meta[key] !== undefined && meta[other] !== undefined) invalidRequest(`Both ${key} and ${other}`, ['__meta__', key]);
  const entries = meta[key] ?? (other === undefined ? undefined : meta[other]);
  if (entries === undefined) return [];
  if (!isPlainObject(entries)) invalidRequest(`${key} must be an object`, ['__meta__', key]);
  return Object.values(entries as Record<string, JsonValue>);
}
