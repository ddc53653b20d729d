// Turns stored rows into records `{id, ...document, created_at, updated_at}` and applies a selection:
// data keys with `null` pick top-level keys, `exclude: {"key": null}` drops them, `id` always stays.
// Document keys are copied as stored, never renamed, and set as own data (a `__proto__` key is data).
import type { JsonObject, JsonValue } from '../../../shared/protocol.ts';
import type { Row } from '../../db/sql-session.ts';
import { ErrorList, invalidRequest, type ErrorPath } from '../../errors.ts';
import { parseJsonExact } from '../../exact-integers.ts';
import { defineKey } from '../../query/normalize.ts';

export const ROW_COLUMNS = 'd."id", d.body, d.created_at, d.updated_at';

export interface Selection {
  /** Top-level keys asked for, in order; null = all of them. */
  keys: string[] | null;
  omit: Set<string>;
}

export function selectionOf(data: Record<string, JsonValue> | null | undefined, exclude: Record<string, JsonValue> | undefined, errorPath: ErrorPath): Selection {
  const entries = Object.entries(data ?? {});
  const errors = new ErrorList();
  for (const [key, value] of entries) {
    if (value !== null) errors.check(() => invalidRequest(`Selecting "${key}": a collection selects top-level keys with null`, [...errorPath, key]));
  }
  errors.throwIfAny();
  const omit = new Set<string>();
  for (const [key, value] of Object.entries(exclude ?? {})) if (value === null && key !== 'id') omit.add(key);
  return { keys: entries.length === 0 ? null : entries.map(([key]) => key), omit };
}

export function toRecord(row: Row, selection: Selection): JsonObject {
  // An integer past 2^53 was stored with its digits and is sent with them (exact-integers.ts).
  const document = parseJsonExact(row.body as string) as JsonObject;
  const stored: JsonObject = {};
  defineKey(stored, 'id', row.id as number);
  for (const [key, value] of Object.entries(document)) defineKey(stored, key, value);
  defineKey(stored, 'created_at', row.created_at as string);
  defineKey(stored, 'updated_at', row.updated_at as string);
  const record: JsonObject = { id: row.id as number };
  for (const key of selection.keys ?? Object.keys(stored)) {
    if (key === 'id' || selection.omit.has(key)) continue;
    // A key some documents lack answers null, so every record of a page has the asked-for shape.
    defineKey(record, key, Object.hasOwn(stored, key) ? (stored[key] as JsonValue) : null);
  }
  return record;
}
