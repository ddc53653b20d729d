/**
 * The parts of a JQL answer (docs/protocol.md "The envelope", "The flat shape", "Multi-query") as valibot schemas: errors, extras, system
 * info, labels. Each part is lenient where a server can be wrong on its own (one error's
 * `detail.stack`, one SQL entry, `__extras__.limit`): that piece is replaced and named as a misfit,
 * the rest of the answer stays. The read* functions run inside a read (lenient.ts) and name the
 * part by the key it came under, in the shape the server used (`__system__` or `system_info`).
 */
import * as v from 'valibot';
import type { Extras, JqlError, SqlTrace, SystemInfo } from '../../../shared/protocol.ts';
import { count, detailText, json, jsonObject, label, message, millis, record } from './fields.ts';
import { lenient, lenientList, readWithin } from './lenient.ts';

/** Absent or null: nothing was said, which is not a misfit. Anything else must fit `schema`. */
const optional = <S extends v.GenericSchema>(schema: S, where: string, expected: string) =>
  v.pipe(
    lenient(v.nullish(schema), undefined, where, expected),
    v.transform((x) => x ?? undefined),
  );

const COUNT = 'a count (a whole number, 0 or more)';

const detail = record({
  exception: lenient(label, '(not text)', 'exception', 'text'),
  message: lenient(message, '(not text)', 'message', 'text'),
  stack: optional(detailText, 'stack', 'text'),
});

/**
 * A key of the query or of a record, as an error's field or path names it: data, not the server's
 * words, so it keeps its bidi and zero-width characters (the views draw them as placeholders, and
 * the editor's marker finds the key with them); only cut, as a label is.
 */
const keyName = v.pipe(v.string(), v.transform((s) => s.slice(0, 200)));

export const errorSchema = v.pipe(
  record({
    code: lenient(label, 'internal_error', 'code', 'text'),
    message: lenient(message, '(the server gave no message)', 'message', 'text'),
    field: optional(keyName, 'field', 'text'),
    path: optional(v.array(v.union([keyName, v.number()])), 'path', 'a list of keys and indexes'),
    detail: optional(detail, 'detail', 'an object {exception, message, stack}'),
  }),
  v.transform((e): JqlError => {
    // A code the console does not know is shown as the server wrote it.
    const error: JqlError = { code: (e.code ?? 'internal_error') as JqlError['code'], message: e.message ?? '(the server gave no message)' };
    if (e.field !== undefined) error.field = e.field;
    if (e.path !== undefined) error.path = e.path;
    if (e.detail !== undefined) {
      const { exception = '(none given)', message = '', stack } = e.detail;
      error.detail = { exception, message, ...(stack !== undefined ? { stack } : {}) };
    }
    return error;
  }),
);

const COUNT_KEYS: ReadonlySet<string> = new Set(['filtered', 'display', 'queries', 'limit', 'offset', 'draw']);

/** `__extras__`: the known counts must be counts; other keys are kept as the server sent them. */
const extrasSchema = v.pipe(
  jsonObject,
  v.transform((raw): Extras => {
    const out: Extras = {};
    for (const [key, value] of Object.entries(raw)) {
      if (COUNT_KEYS.has(key)) {
        const n = v.parse(optional(count, key, COUNT), value);
        if (n !== undefined) out[key] = n;
      } else if (key === 'cached') {
        const b = v.parse(optional(v.boolean(), key, 'true or false'), value);
        if (b !== undefined) out.cached = b;
      } else if (key === 'notices') {
        out.notices = value === null ? [] : v.parse(lenientList(message, key, 'text'), value);
      } else out[key] = value;
    }
    return out;
  }),
);

const sqlTrace = v.pipe(
  record({ sql: detailText, params: v.array(json), time_ms: v.optional(lenient(millis, 0, 'time_ms', 'a duration in ms'), 0) }),
  v.transform((s): SqlTrace => s),
);

/** `__system__`: counts, time, and the statements (each must be {sql: text, params: list}). */
const systemSchema = v.pipe(
  record({
    queries: v.optional(lenient(count, 0, 'queries', COUNT), 0),
    time_ms: v.optional(lenient(millis, 0, 'time_ms', 'a duration in ms'), 0),
    sql: v.nullish(lenientList(sqlTrace, 'sql', 'a statement {sql: text, params: list}')),
  }),
  v.transform((s): SystemInfo => ({ queries: s.queries, time_ms: s.time_ms, ...(s.sql ? { sql: s.sql } : {}) })),
);

export function readErrors(raw: unknown, where: string): JqlError[] {
  if (raw === null || raw === undefined) return [];
  return v.parse(lenientList(errorSchema, where, 'an error {code, message}'), raw);
}

export function readExtras(raw: unknown, where: string): Extras | null {
  if (raw === null || raw === undefined) return null;
  return readWithin(extrasSchema, raw, null, where, 'an object');
}

export function readSystem(raw: unknown, where: string): SystemInfo | null {
  if (raw === null || raw === undefined) return null;
  return readWithin(systemSchema, raw, null, where, 'an object {queries, time_ms, sql}');
}

/** An intent or another one-line label; null when absent. */
export function readLabel(raw: unknown, where: string): string | null {
  return v.parse(optional(label, where, 'text'), raw) ?? null;
}

/** A message (several lines allowed); null when absent. */
export function readMessage(raw: unknown, where: string): string | null {
  return v.parse(optional(message, where, 'text'), raw) ?? null;
}

/** A list of notices; [] when absent. */
export function readNotices(raw: unknown, where: string): string[] {
  if (raw === null || raw === undefined) return [];
  return v.parse(lenientList(message, where, 'text'), raw);
}
