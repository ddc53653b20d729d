/**
 * 64-bit integers kept exact through the server (docs/protocol.md "Large integers"): an integer a
 * double cannot hold (above 2^53 in magnitude) is a `bigint` from the moment its JSON is parsed or its
 * SQLite cell is read until its digits are written out again; every integer a double holds stays a
 * `number`. One form per value, so a Map, a cache key or `===` never tells two forms of one id apart.
 *
 * JSON.stringify writes a bigint through `BigInt.prototype.toJSON`, installed here as its exact digits
 * (`JSON.rawJSON`). A replacer on every serialization would cost each answer a call per value (the
 * read by id is on a speed goal); the method costs nothing where no bigint is, and makes every path
 * that writes JSON (answers, cache keys, plan shapes, the event log, error messages) exact at once,
 * where without it they would throw on a bigint.
 */

declare global {
  interface BigInt {
    toJSON(): unknown;
  }
}

// Node 22 has it (the server needs Node 22); a runtime without it must not start and send neighbours.
const rawJSON = JSON.rawJSON;
if (!rawJSON) throw new Error('JSON.rawJSON is missing: the JQL server needs Node.js 22 or later');

BigInt.prototype.toJSON = function writeDigits(this: bigint): unknown {
  return rawJSON(this.toString());
};

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** Only a text with a run of 16 digits can hold an integer past 2^53 (9007199254740992 has 16). */
const MAY_HOLD_BIG_INTEGER = /\d{16}/;
const INTEGER_TEXT = /^-?\d+$/;

interface ReviverContext {
  source?: string;
}

/**
 * A parsed integer's one form: a bigint of the digits sent for an integer text past 2^53, even one a
 * double happens to hold (2^53 + 2), so that it meets the same id read from SQLite as the same value.
 * Texts with a fraction or an exponent (`1e300`) stay doubles.
 */
function keepDigits(this: unknown, _key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value !== 'number' || Number.isSafeInteger(value)) return value;
  const source = context?.source;
  return source !== undefined && INTEGER_TEXT.test(source) ? BigInt(source) : value;
}

/**
 * JSON.parse that keeps integers past 2^53 as bigint (see above). A text without a 16-digit run is
 * parsed as before, with no reviver: most bodies, and so most requests, pay one regular expression.
 */
export function parseJsonExact(text: string): unknown {
  if (!MAY_HOLD_BIG_INTEGER.test(text)) return JSON.parse(text) as unknown;
  return JSON.parse(text, keepDigits as (this: unknown, key: string, value: unknown) => unknown) as unknown;
}

/** An integer in SQLite's range (a 64-bit signed INTEGER): a safe number, or a bigint that fits. */
export function isInt64(value: unknown): value is number | bigint {
  if (typeof value === 'bigint') return value >= INT64_MIN && value <= INT64_MAX;
  return Number.isSafeInteger(value);
}

/** Whether a double holds this integer exactly (2^53 + 2 yes, 2^53 + 1 no). */
export function isExactDouble(value: bigint): boolean {
  return BigInt(Number(value)) === value;
}

/** The one form of an integer read as a bigint: a number when a double holds it exactly. */
export function exactInteger(value: bigint): number | bigint {
  return value >= -9007199254740991n && value <= 9007199254740991n ? Number(value) : value;
}
