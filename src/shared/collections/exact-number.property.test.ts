/**
 * compareExact (exact-number.ts) against exact arithmetic: integers of any size compared as BigInt,
 * finite doubles compared as numbers, and each integer both as a JS number and as its digits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BIG_NUMBER_PREFIX } from '../big-number.ts';
import { compareExact } from './exact-number.ts';

const digits = (n: bigint): string => `${BIG_NUMBER_PREFIX}${n}`;
const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe('compareExact', () => {
  it('orders integers of any size by their digits, as BigInt does', () => {
    const big = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n });
    fc.assert(
      fc.property(big, big, (a, b) => {
        expect(compareExact(digits(a), digits(b))).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
      { numRuns: 500 },
    );
  });

  it('orders finite doubles as numbers, and a safe integer the same as a number or as its digits', () => {
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(finite, finite, (a, b) => {
        expect(compareExact(a, b)).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.maxSafeInteger(), (a, b) => {
        expect(compareExact(a, digits(BigInt(b)))).toBe(sign(a - b));
        expect(compareExact(digits(BigInt(a)), b)).toBe(sign(a - b));
      }),
      { numRuns: 500 },
    );
  });

  it('tells apart two ids that are the same double', () => {
    expect(compareExact(digits(9007199254740993n), digits(9007199254740992n))).toBe(1);
    expect(compareExact(9007199254740992, digits(9007199254740993n))).toBe(-1);
  });
});
