import { describe, expect, it } from 'vitest';
import type { Assertion } from '../../../shared/collections/format.ts';
import { EMPTY_ROW, fromRow, toRow } from './assertion-rows.ts';

describe('assertion rows', () => {
  it('round-trips every kind of assertion through the text the user edits', () => {
    const assertions: Assertion[] = [
      { target: 'status', op: 'eq', value: 200 },
      { target: 'path', path: '$.__payload__[0].title', op: 'matches', value: '^A' },
      { target: 'errorCode', at: ['filter', 'x'], op: 'eq', value: 'unknown_field' },
      { target: 'extras.queries', op: 'lte', value: 3 },
      { target: 'path', path: '$.__payload__', op: 'exists' },
    ];
    for (const assertion of assertions) {
      expect(fromRow(toRow(assertion))).toEqual({ ok: true, assertion });
    }
  });

  it('takes text that is not JSON as a string, and says why a row is not an assertion yet', () => {
    expect(fromRow({ ...EMPTY_ROW, target: 'path', path: '$.__intent__', value: 'retrieve' })).toEqual({ ok: true, assertion: { target: 'path', path: '$.__intent__', op: 'eq', value: 'retrieve' } });
    expect(fromRow({ ...EMPTY_ROW, op: 'lt', value: 'soon' })).toEqual({ ok: false, problem: '"lt" compares with a number' });
    expect(fromRow({ ...EMPTY_ROW, target: 'path', path: 'no-dollar' })).toEqual({ ok: false, problem: 'a "path" target needs "path": a JSONPath starting with $' });
    expect(fromRow({ ...EMPTY_ROW, target: 'errorCode', at: '"filter"', value: '"x"' })).toEqual({ ok: false, problem: 'the error path is a JSON array, e.g. ["filter", "priority"]' });
  });
});
