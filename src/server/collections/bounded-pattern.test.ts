/**
 * Issue 32.5: `^(a+)+$` against 34 "a" and "!" held `run` past 90 s. Patterns now run in linear time,
 * or (with a backreference) are stopped after a bound, and the assertion names the pattern.
 */
import { describe, expect, it } from 'vitest';
import { evaluateAssertion } from '../../shared/collections/assertions.ts';
import { boundedPatternTest } from './bounded-pattern.ts';

const nearMatch = `${'a'.repeat(34)}!`;

describe('matches under jql-console run', () => {
  it('answers a catastrophic pattern at once, and the same as JavaScript does on ordinary ones', () => {
    const test = boundedPatternTest();
    expect(test('^(a+)+$', nearMatch)).toBe(false);
    expect(test('^(a+)+$', 'aaaa')).toBe(true);
    for (const [pattern, text] of [['^T-\\d{3}$', 'T-042'], ['^T-\\d{3}$', 'T-42'], ['(?<=#)\\w+', 'tag #x'], ['^[A-Z][a-z]+ \\w+$', 'Hello world']] as const) {
      expect(test(pattern, text), pattern).toBe(new RegExp(pattern).test(text));
    }
  });

  it('runs a pattern with a backreference where it can be stopped, and says which pattern was too slow', () => {
    const test = boundedPatternTest(300);
    expect(test('^(a)\\1$', 'aa')).toBe(true);
    expect(test('^(ab)\\1$', 'abba')).toBe(false);
    expect(() => test('^(a+)+\\1$', nearMatch)).toThrow('the pattern "^(a+)+\\\\1$" took longer than 0.3 s on a value of 35 characters and was stopped');
    const result = evaluateAssertion({ target: 'path', path: '$.name', op: 'matches', value: '^(a+)+\\1$' }, { status: 200, body: { name: nearMatch }, roundTripMs: 1 }, test);
    expect(result.passed).toBe(false);
    expect(result.message).toMatch(/^\$\.name: the pattern "\^\(a\+\)\+\\\\1\$" took longer than 0\.3 s/);
  });
});
