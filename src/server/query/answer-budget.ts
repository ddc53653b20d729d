/**
 * The bound on one answer (docs/protocol.md "Errors" `limits.maxAnswerBytes`): every row a request reads is
 * counted as it comes off SQLite, before the next one is read, so a request that would build an
 * answer past the limit stops there with `payload_too_large` instead of holding it all first. The
 * count is the row's size as UTF-8 bytes of its JSON text, escapes included (query/json-bytes.ts): what
 * the row weighs once sent. A cached answer is counted at what it weighs sent as well (cache/answer-cache.ts).
 *
 * The count only grows: rows read by a subquery that then failed still count, and once the budget is
 * spent every later read of the request is refused. So one request reads at most about the limit,
 * whatever the number of subqueries (giving a refused subquery's room back would let 64 of them read
 * 64 times the limit).
 */
import type { Row, RowMeter } from '../db/sql-session.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import type { FieldDef } from '../workspace/types.ts';
import { jsonNumberBytes, jsonStringBytes } from './json-bytes.ts';

export class AnswerBudget implements RowMeter {
  readonly max: number;
  /** Bytes counted exactly so far (not those of `pending`). */
  private counted = 0;
  /**
   * Rows not measured yet (a shortcut, `lazy`): each was put here only when the most it can weigh
   * (rowBytesBound, from its strings' lengths, without reading them) still fit with everything before
   * it, so it could not have been refused. They are measured only when a later check would need the
   * exact count; most requests never get there, and their rows are never scanned.
   */
  private pending: Row[] = [];
  /** The sum of `pending`'s bounds: never less than what they weigh. */
  private pendingAtMost = 0;
  private readonly lazy: boolean;

  /** `lazy`: rows that cannot pass the budget are measured only when needed (off without shortcuts). */
  constructor(max: number, lazy = false) {
    this.max = max;
    this.lazy = lazy;
  }

  /** Bytes counted so far: what every row charged weighs, exactly. */
  get used(): number {
    this.settle();
    return this.counted;
  }

  /** Whether rows that weigh at most `bytes` fit in what is left, so that reading them cannot be refused. */
  hasRoomFor(bytes: number): boolean {
    if (this.counted + this.pendingAtMost + bytes <= this.max) return true;
    this.settle();
    return this.counted + bytes <= this.max;
  }

  charge(row: Row): void {
    if (this.lazy) {
      const most = rowBytesBound(row);
      if (this.counted + this.pendingAtMost + most <= this.max) {
        this.pending.push(row);
        this.pendingAtMost += most;
        return;
      }
    }
    this.spend(rowBytes(row));
  }

  /** Counts an answer that was not read row by row (a cached one), by the bytes it weighs sent. */
  spend(bytes: number): void {
    // Whatever the pending rows weigh, with these bytes they fit: no refusal to decide.
    if (this.counted + this.pendingAtMost + bytes <= this.max) {
      this.counted += bytes;
      return;
    }
    this.settle();
    this.counted += bytes;
    if (this.counted > this.max) throw answerTooLarge(this.max);
  }

  /** Measures the pending rows; they fit by their bounds, so this never refuses. */
  private settle(): void {
    if (this.pending.length === 0) return;
    for (const row of this.pending) this.counted += rowBytes(row);
    this.pending = [];
    this.pendingAtMost = 0;
  }
}

/** The refusal of an answer past limits.maxAnswerBytes. */
export function answerTooLarge(max: number): JqlFailure {
  return new JqlFailure([
    jqlError('payload_too_large', `The answer would be larger than limits.maxAnswerBytes (${max} bytes): ask for fewer records or fields, or page with limit and offset`),
  ]);
}

/**
 * Whether an answer's JSON text weighs at most `max` bytes in UTF-8. The last check of what is sent
 * (http/answer-reply.ts): the rows were counted as they were read, but a record is not its row (a
 * boolean is `true`, not `1`; a file is its description; the envelope has its own keys), so the text
 * itself decides. JSON.stringify escapes lone surrogates, so each unit of its text is 1 to 3 bytes:
 * most answers are decided by their length alone.
 */
export function fitsInBytes(text: string, max: number): boolean {
  if (text.length * 3 <= max) return true;
  if (text.length > max) return false;
  return Buffer.byteLength(text, 'utf8') <= max;
}

/**
 * A row's size as sent: the UTF-8 bytes of `JSON.stringify(row)`, exactly, for the values SQLite
 * gives (text, numbers, null). A `json` column's text is counted as a string (its quotes escaped),
 * never less than the value it holds weighs sent.
 */
export function rowBytes(row: Row): number {
  return measureRow(row, jsonStringBytes);
}

/** rowBytes, with each string value counted by `stringBytes`. */
function measureRow(row: Row, stringBytes: (text: string) => number): number {
  let bytes = 1;
  for (const key in row) {
    const value = row[key];
    // The key, its colon, and the comma or closing brace after the value.
    bytes += keyBytes(key) + 2;
    if (typeof value === 'string') bytes += stringBytes(value);
    else if (typeof value === 'number') bytes += jsonNumberBytes(value);
    else if (value === null || value === undefined) bytes += 4;
    else if (typeof value === 'bigint') bytes += String(value).length;
    else if (Buffer.isBuffer(value)) bytes += value.length;
    else bytes += 8;
  }
  return bytes === 1 ? 2 : bytes;
}

/** Keys are column names, a few per schema: each is measured once (bounded, should rows bring many). */
const keySizes = new Map<string, number>();

function keyBytes(key: string): number {
  let bytes = keySizes.get(key);
  if (bytes === undefined) {
    if (keySizes.size >= 4096) keySizes.clear();
    keySizes.set(key, (bytes = jsonStringBytes(key)));
  }
  return bytes;
}

/**
 * The most rowBytes(row) can be, from its strings' lengths alone: JSON writes one UTF-16 unit as 6
 * bytes at most (`\u0001`, a lone surrogate `\udc00`; a surrogate pair is 4 for two units). Every
 * other kind of value is counted as rowBytes counts it.
 */
function rowBytesBound(row: Row): number {
  return measureRow(row, stringBytesAtMost);
}

function stringBytesAtMost(text: string): number {
  return CHARACTER_BYTES * text.length + 2;
}

/** The most a stored number weighs sent (`-1.2345678901234567e-308`); an integer, boolean or ref weighs less. */
const NUMBER_BYTES = 24;
/** A stored date (`YYYY-MM-DD`) or date-time (`2026-01-01T08:00:00.000Z`), quoted, with room to spare. */
const DATE_BYTES = 32;
/** The most one character weighs sent: a control character or a lone surrogate (`\u0001`). */
const CHARACTER_BYTES = 6;

/**
 * The most rowBytes can count for a row of `columns`, for values the server stored. It is sound
 * because the write check bounds what a value weighs serialized, not as it is stored
 * (query/value-size.ts): a string or text value's JSON text, escapes included, holds at most
 * limits.maxValueBytes, so a string of control characters (6 bytes each once escaped) is refused on
 * write at a sixth of the length of a plain one, instead of every read having to assume a 6x
 * blow-up (which would also keep every page with a text column from the one-call read). A string's
 * choices or maxLength bound it lower; a json value's stored text holds at most maxValueBytes and is
 * counted as a string, where a `"` or `\` weighs 2; a date has its one stored form.
 * A value that reached the database another way (another program writing the file, a maxValueBytes
 * lowered after it was written) can be larger: a read that relied on this bound then holds its rows
 * before the budget refuses them, as many as the statement's LIMIT, and answers payload_too_large all the same.
 */
export function rowBytesAtMost(columns: readonly FieldDef[], maxValueBytes: number): number {
  let bytes = 1;
  for (const field of columns) bytes += jsonStringBytes(field.column) + 2 + Math.max(4, valueBytesAtMost(field, maxValueBytes));
  return Math.max(2, bytes);
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
      let most = maxValueBytes + 2;
      // A choice is stored as it is written; maxLength counts characters.
      if (field.choices) most = Math.min(most, Math.max(0, ...field.choices.map((choice) => (typeof choice === 'string' ? jsonStringBytes(choice) : most))));
      if (field.maxLength !== undefined) most = Math.min(most, CHARACTER_BYTES * field.maxLength + 2);
      return most;
    }
    case 'text':
    case 'file':
      return maxValueBytes + 2;
    case 'json':
      return 2 * maxValueBytes + 2;
  }
}
