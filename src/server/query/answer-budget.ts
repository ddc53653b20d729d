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

export class AnswerBudget implements RowMeter {
  readonly max: number;
  /** Bytes counted so far. */
  used = 0;

  constructor(max: number) {
    this.max = max;
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
