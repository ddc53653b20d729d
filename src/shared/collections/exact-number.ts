/**
 * Numbers compared by the digits the server sent, not as doubles (issue 31): an assertion that an
 * id equals 9007199254740993 must fail on 9007199254740992, though both are the same double. A
 * number here is a JS number or a number kept as its digits (shared/big-number.ts); both are read
 * as decimal text, so `1e400` is greater than `1e300` and `9007199254740993` than `…992`.
 */
import { bigNumberText, decimalParts, isBigNumber, type DecimalParts } from '../big-number.ts';

/** A JS number or a number kept as its digits. */
export const isExactNumber = (value: unknown): value is number | string => (typeof value === 'number' && Number.isFinite(value)) || isBigNumber(value);

/** Zero for a text that is not a number (isExactNumber rules that out before a compare). */
const ZERO: DecimalParts = { negative: false, digits: '', exponent: 0 };

function decimal(value: number | string): DecimalParts {
  // String(number) is the shortest text that reads back as that double: the number as written.
  const text = typeof value === 'number' ? String(value) : bigNumberText(value);
  return decimalParts(text) ?? ZERO;
}

/** -1, 0 or 1 as a is less than, equal to or greater than b, by their decimal digits. */
export function compareExact(a: number | string, b: number | string): number {
  const x = decimal(a);
  const y = decimal(b);
  if (x.negative !== y.negative) return x.negative ? -1 : 1;
  const flip = x.negative ? -1 : 1;
  if (x.digits === '' || y.digits === '') return flip * (Number(x.digits !== '') - Number(y.digits !== ''));
  if (x.exponent !== y.exponent) return flip * (x.exponent < y.exponent ? -1 : 1);
  const width = Math.max(x.digits.length, y.digits.length);
  const left = x.digits.padEnd(width, '0');
  const right = y.digits.padEnd(width, '0');
  return left === right ? 0 : flip * (left < right ? -1 : 1);
}
