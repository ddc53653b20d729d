/**
 * The bound on one answer (docs/protocol.md "Errors" `limits.maxAnswerBytes`): every row a request reads is
 * counted as it comes off SQLite, before the next one is read, so a request that would build an
 * answer past the limit stops there with `payload_too_large` instead of holding it all first. The
 * count is the row's size as JSON (keys, values, punctuation), close to what the answer will weigh.
 *
 * The count only grows: rows read by a subquery that then failed still count, and once the budget is
 * spent every later read of the request is refused. So one request reads at most about the limit,
 * whatever the number of subqueries (giving a refused subquery's room back would let 64 of them read
 * 64 times the limit).
 */
import type { Row, RowMeter } from '../db/sql-session.ts';
import { fail } from '../errors.ts';
import type { FieldDef } from '../workspace/types.ts';

export class AnswerBudget implements RowMeter {
  readonly max: number;
  /** Bytes counted so far. */
  used = 0;

  constructor(max: number) {
    this.max = max;
  }

  /** Whether rows that weigh at most `bytes` fit in what is left, so that reading them cannot be refused. */
  hasRoomFor(bytes: number): boolean {
    return this.used + bytes <= this.max;
  }

  charge(row: Row): void {
    this.used += rowBytes(row);
    if (this.used > this.max) {
      fail('payload_too_large', `The answer would be larger than limits.maxAnswerBytes (${this.max} bytes): ask for fewer records or fields, or page with limit and offset`);
    }
  }
}

/** A row's size as JSON, without measuring strings byte by byte (an estimate within UTF-8's factor). */
export function rowBytes(row: Row): number {
  let bytes = 2;
  for (const key in row) {
    const value = row[key];
    bytes += key.length + 4;
    if (typeof value === 'string') bytes += value.length;
    else if (value === null || value === undefined) bytes += 4;
    else if (Buffer.isBuffer(value)) bytes += value.length;
    else bytes += 8;
  }
  return bytes;
}

/** What rowBytes counts for a number (integer, number, boolean, ref) and at most for a null. */
const NUMBER_BYTES = 8;
/** A stored date (`YYYY-MM-DD`) or date-time (`2026-01-01T08:00:00.000Z`), with room to spare. */
const DATE_BYTES = 32;

/**
 * The most rowBytes can count for a row of `columns`, for values the server stored: a string, text,
 * json or file value holds at most limits.maxValueBytes (a string's choices or maxLength bound it
 * lower), a date or date-time has its one stored form, a number counts 8. A value that reached the
 * database another way (another program writing the file, a maxValueBytes lowered after it was
 * written) can be larger: a read that relied on this bound then holds its rows before the budget
 * refuses them, as many as the statement's LIMIT, and answers payload_too_large all the same.
 */
export function rowBytesAtMost(columns: readonly FieldDef[], maxValueBytes: number): number {
  let bytes = 2;
  for (const field of columns) bytes += field.column.length + 4 + Math.max(4, valueBytesAtMost(field, maxValueBytes));
  return bytes;
}

function valueBytesAtMost(field: FieldDef, maxValueBytes: number): number {
  switch (field.type) {
    case 'integer':
    case 'number':
    case 'boolean':
    case 'ref':
      return NUMBER_BYTES;
    case 'date':
    case 'datetime':
      return DATE_BYTES;
    case 'string': {
      let most = maxValueBytes;
      // A choice is stored as it is written; a character is at most two UTF-16 units.
      if (field.choices) most = Math.min(most, Math.max(0, ...field.choices.map((choice) => (typeof choice === 'string' ? choice.length : maxValueBytes))));
      if (field.maxLength !== undefined) most = Math.min(most, 2 * field.maxLength);
      return most;
    }
    case 'text':
    case 'json':
    case 'file':
      return maxValueBytes;
  }
}
