import { describe, expect, it } from 'vitest';
import { limitLiteral } from './limit-literal.ts';

describe('limitLiteral', () => {
  it('writes a whole number >= 0 into the text, and throws on anything else', () => {
    expect(limitLiteral(0)).toBe('LIMIT 0');
    expect(limitLiteral(20)).toBe('LIMIT 20');
    expect(limitLiteral(Number.MAX_SAFE_INTEGER)).toBe(`LIMIT ${Number.MAX_SAFE_INTEGER}`);
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '5; DROP TABLE x' as unknown as number, null as unknown as number]) {
      expect(() => limitLiteral(bad)).toThrow(RangeError);
    }
  });
});
