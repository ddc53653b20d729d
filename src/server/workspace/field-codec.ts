/**
 * The one codec of field values (docs/workspace.md field types): whether a JSON value fits a type, how it
 * is stored in SQLite, and how a stored value reads back. Writes, filters (of queries and of stream
 * subscriptions), the workspace's defaults, choices and scopes, the demo seed and imports all go
 * through it, so a value is checked and normalized the same way wherever it enters.
 *
 * Dates are `YYYY-MM-DD` (a real calendar day). Date-times are ISO-8601 with a time zone (a bare local
 * time would mean different instants on different machines) and are stored as UTC in one fixed form,
 * `2026-01-01T08:00:00.000Z`, so that text comparison is time order: a filter value is normalized the
 * same way, and `2026-01-01T10:00:00+02:00` finds the record stored as 08:00Z.
 */
import type { FieldType, JsonValue } from '../../shared/protocol.ts';
import { INT64_MAX, INT64_MIN, isExactDouble, isInt64, parseJsonExact } from '../exact-integers.ts';

export const FIELD_TYPES: readonly FieldType[] = ['string', 'text', 'integer', 'number', 'boolean', 'date', 'datetime', 'json', 'ref', 'file'];

/** A value as SQLite stores it (a bigint: an INTEGER past 2^53, exact-integers.ts). */
export type StoredValue = string | number | bigint | null;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const DATETIME_EXAMPLE = '"2026-01-01T09:30:00Z" or "2026-01-01T10:30:00+01:00"';

export function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'string' && (FIELD_TYPES as readonly string[]).includes(value);
}

/** Null when `value` (not null) fits `type`, else what was expected ("an integer"). */
export function valueProblem(type: FieldType, value: unknown): string | null {
  switch (type) {
    case 'string':
    case 'text':
      return typeof value === 'string' ? null : 'a string';
    case 'integer':
      return isInt64(value) ? null : typeof value === 'bigint' ? OUT_OF_RANGE : 'an integer';
    case 'number':
      // An integer text past 2^53 is a bigint: stored in a REAL column it is the double, so one a
      // double would round is refused rather than read back as its neighbour.
      if (typeof value === 'bigint') return isExactDouble(value) ? null : 'a number a double holds exactly: store integers past 2^53 in an integer field';
      return typeof value === 'number' && Number.isFinite(value) ? null : 'a number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'true or false';
    case 'date':
      return typeof value === 'string' && canonicalDate(value) !== null ? null : 'a date "YYYY-MM-DD"';
    case 'datetime':
      return typeof value === 'string' && canonicalDateTime(value) !== null ? null : `an ISO-8601 date-time with a time zone, e.g. ${DATETIME_EXAMPLE}`;
    case 'json':
      return null;
    case 'ref':
      if (typeof value === 'bigint' && value > INT64_MAX) return `a positive integer id (at most ${INT64_MAX})`;
      return isInt64(value) && value > 0 ? null : 'a positive integer id';
    case 'file':
      return 'a file: upload it with PUT /jql (multipart)';
  }
}

/** What an integer past SQLite's 64-bit range is told (12345678901234567890 would be stored as a REAL). */
const OUT_OF_RANGE = `an integer from ${INT64_MIN} to ${INT64_MAX} (SQLite's 64-bit range)`;

/** JSON value -> stored value, for a value that `valueProblem` accepts (or null). */
export function toStored(type: FieldType, value: JsonValue): StoredValue {
  if (value === null) return null;
  switch (type) {
    case 'boolean':
      return value ? 1 : 0;
    case 'json':
      return JSON.stringify(value);
    case 'datetime':
      return canonicalDateTime(value as string) as string;
    case 'number':
      return Number(value);
    default:
      return value as unknown as string | number | bigint;
  }
}

/** Stored value -> JSON value. */
export function fromStored(type: FieldType, stored: unknown): JsonValue {
  if (stored === null || stored === undefined) return null;
  switch (type) {
    case 'boolean':
      return stored !== 0;
    case 'json':
      return parseJsonExact(stored as string) as JsonValue;
    default:
      return stored as JsonValue;
  }
}

/** `YYYY-MM-DD` when it names a real day ("2026-02-30" does not), else null. */
export function canonicalDate(text: string): string | null {
  const match = DATE.exec(text);
  if (!match) return null;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls over (Feb 30 -> Mar 2) and maps years 0-99 to 1900-1999: both show here.
  date.setUTCFullYear(year);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? text : null;
}

/** The stored form (UTC, milliseconds, `Z`) of an ISO-8601 date-time with a time zone, else null. */
export function canonicalDateTime(text: string): string | null {
  const match = DATETIME.exec(text);
  if (!match) return null;
  const [, day, hours, minutes, seconds = '00', fraction = '', zone] = match as unknown as [string, string, string, string, string | undefined, string | undefined, string];
  if (canonicalDate(day) === null || Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) return null;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  if (offset !== 'Z' && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(4)) > 59)) return null;
  const millis = fraction === '' ? '' : fraction.slice(0, 4).padEnd(4, '0');
  const instant = new Date(`${day}T${hours}:${minutes}:${seconds}${millis}${offset}`);
  if (Number.isNaN(instant.getTime())) return null;
  const stored = instant.toISOString();
  // An offset can carry 0000-01-01 or 9999-12-31 out of four-digit years, whose text would not sort.
  return /^\d{4}-/.test(stored) ? stored : null;
}
