// The field codec: what each type accepts, its stored form, and reading it back (docs/workspace.md types).
import { describe, expect, it } from 'vitest';
import { canonicalDate, canonicalDateTime, fromStored, toStored, valueProblem } from './field-codec.ts';

describe('date-times', () => {
  it('are stored in UTC in one form, whatever offset or precision they were given in', () => {
    expect(canonicalDateTime('2030-01-01T10:00:00+02:00')).toBe('2030-01-01T08:00:00.000Z');
    expect(canonicalDateTime('2030-01-01T10:00:00+0200')).toBe('2030-01-01T08:00:00.000Z');
    expect(canonicalDateTime('2030-01-01T08:00Z')).toBe('2030-01-01T08:00:00.000Z');
    expect(canonicalDateTime('2030-01-01 08:00:00.123456789z')).toBe('2030-01-01T08:00:00.123Z');
    expect(canonicalDateTime('2029-12-31T23:30:00-09:00')).toBe('2030-01-01T08:30:00.000Z');
  });

  it('refuse what is not an instant: no zone, impossible days and times, words, years outside 0000-9999', () => {
    for (const text of ['tomorrow', '2030-01-01', '2030-01-01T10:00', '2030-02-30T10:00Z', '2030-01-01T24:00Z', '2030-01-01T10:60Z', '2030-01-01T10:00:00+24:00', '9999-12-31T23:00:00-02:00', ' 2030-01-01T10:00Z']) {
      expect(canonicalDateTime(text), text).toBeNull();
      expect(valueProblem('datetime', text), text).toMatch(/time zone/);
    }
  });
});

describe('dates', () => {
  it('are real calendar days', () => {
    expect(canonicalDate('2028-02-29')).toBe('2028-02-29');
    expect(canonicalDate('0050-06-01')).toBe('0050-06-01');
    for (const text of ['2030-02-29', '2030-13-01', '2030-1-1', '2030-01-01T00:00Z']) expect(valueProblem('date', text), text).not.toBeNull();
  });
});

describe('each type', () => {
  it('checks, stores and reads back', () => {
    const cases: Array<[Parameters<typeof toStored>[0], unknown, unknown, unknown]> = [
      ['boolean', true, 1, true],
      ['boolean', false, 0, false],
      ['json', { a: [1] }, '{"a":[1]}', { a: [1] }],
      ['integer', 7, 7, 7],
      ['number', 1.5, 1.5, 1.5],
      ['string', 'x', 'x', 'x'],
      ['ref', 3, 3, 3],
      ['datetime', '2030-01-01T10:00:00+02:00', '2030-01-01T08:00:00.000Z', '2030-01-01T08:00:00.000Z'],
    ];
    for (const [type, value, stored, read] of cases) {
      expect(valueProblem(type, value), type).toBeNull();
      expect(toStored(type, value as never)).toEqual(stored);
      expect(fromStored(type, stored)).toEqual(read);
    }
    expect(fromStored('json', null)).toBeNull();
    expect(valueProblem('integer', 1.5)).toBe('an integer');
    expect(valueProblem('ref', 0)).toBe('a positive integer id');
    expect(valueProblem('number', Number.NaN)).toBe('a number');
    expect(valueProblem('boolean', 1)).toBe('true or false');
  });
});
