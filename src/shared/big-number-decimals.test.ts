/**
 * Decimals a double cannot hold (issue 31 item 4, beyond integers): `12345678901234.5678` and
 * `12345678901234.568` were both shown as 12345678901234.568, and `0.30000000000000000001` as 0.3.
 */
import { describe, expect, it } from 'vitest';
import { bigNumberText, isBigNumber, parseJsonKeepingNumbers } from './big-number.ts';

const kept = (text: string): unknown => {
  const value = (parseJsonKeepingNumbers(`{"v":${text}}`) as { v: unknown }).v;
  return isBigNumber(value) ? bigNumberText(value) : value;
};

describe('decimals that a double does not read back as sent', () => {
  it('keeps their digits, signs and exponents as sent', () => {
    expect(kept('12345678901234.5678')).toBe('12345678901234.5678');
    expect(kept('-12345678901234.5678')).toBe('-12345678901234.5678');
    expect(kept('0.30000000000000000001')).toBe('0.30000000000000000001');
    expect(kept('1.2345678901234567891e10')).toBe('1.2345678901234567891e10');
    expect(kept('4.9e-324')).toBe('4.9e-324');
  });

  it('leaves numbers a double holds exactly as plain numbers, however they are written', () => {
    expect(kept('12345678901234.568')).toBe(12345678901234.568);
    expect(kept('0.30000000000000004')).toBe(0.30000000000000004);
    expect(kept('1.50000000000000000000')).toBe(1.5);
    expect(kept('9007199254740992.0')).toBe(9007199254740992);
    expect(kept('1e+21')).toBe(1e21);
    expect(kept('0.000000000000000000000')).toBe(0);
    expect(kept('5e-324')).toBe(5e-324);
  });

  it('gives two different decimals two different values', () => {
    const [a, b] = parseJsonKeepingNumbers('[12345678901234.5678, 12345678901234.568]') as unknown[];
    expect(a).not.toEqual(b);
  });
});
