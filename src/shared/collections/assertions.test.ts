import { describe, expect, it } from 'vitest';
import { capture, evaluateAssertion, type Answer } from './assertions.ts';
import type { Assertion } from './format.ts';

const envelope = {
  __payload__: [{ id: 1, title: 'Printer jam', tags: ['hw'] }, { id: 2, title: null, tags: [] }],
  __message__: null,
  __extras__: { filtered: 12, display: 2, queries: 3, cached: false },
  __errors__: null,
  __system__: { queries: 3, time_ms: 4.2 },
  __intent__: 'retrieve',
};
const ok: Answer = { status: 200, body: envelope, roundTripMs: 17.6 };
const failed: Answer = {
  status: 400,
  body: { __payload__: null, __errors__: [{ code: 'unknown_field', message: 'x', path: ['filter', 'priorty'] }, { code: 'invalid_lookup', message: 'y', path: ['filter', 'a__b'] }] },
  roundTripMs: 3,
};
const flat: Answer = { status: 200, body: { status: 'OK', data: envelope.__payload__, errors: null, extras: envelope.__extras__, system_info: null, intent: 'retrieve', message: null }, roundTripMs: 2 };

const passes = (assertion: Assertion, answer: Answer = ok) => evaluateAssertion(assertion, answer).passed;

describe('assertions', () => {
  it('reads each target', () => {
    expect(passes({ target: 'status', op: 'eq', value: 200 })).toBe(true);
    expect(passes({ target: 'extras.filtered', op: 'eq', value: 12 })).toBe(true);
    expect(passes({ target: 'extras.display', op: 'eq', value: 2 })).toBe(true);
    expect(passes({ target: 'extras.queries', op: 'lte', value: 3 })).toBe(true);
    expect(passes({ target: 'extras.cached', op: 'eq', value: false })).toBe(true);
    expect(passes({ target: 'serverTime', op: 'lt', value: 5 })).toBe(true);
    expect(passes({ target: 'roundTrip', op: 'eq', value: 18 })).toBe(true);
    expect(passes({ target: 'payloadLength', op: 'eq', value: 2 })).toBe(true);
    expect(passes({ target: 'path', path: '$.__payload__[0].title', op: 'eq', value: 'Printer jam' })).toBe(true);
    expect(passes({ target: 'errorCode', op: 'eq', value: 'unknown_field' }, failed)).toBe(true);
    expect(passes({ target: 'errorCode', at: ['filter', 'a__b'], op: 'eq', value: 'invalid_lookup' }, failed)).toBe(true);
    expect(passes({ target: 'errorCode', op: 'exists', value: false })).toBe(true);
  });

  it('reads the flat envelope through the same targets and paths', () => {
    expect(passes({ target: 'extras.queries', op: 'eq', value: 3 }, flat)).toBe(true);
    expect(passes({ target: 'path', path: '$.__payload__[1].id', op: 'eq', value: 2 }, flat)).toBe(true);
  });

  it('applies every operator', () => {
    const at = (path: string, op: Assertion['op'], value?: unknown) => passes({ target: 'path', path, op, ...(value === undefined ? {} : { value: value as never }) });
    expect(at('$.__payload__[0].title', 'neq', 'x')).toBe(true);
    expect(at('$.__extras__.queries', 'gt', 2)).toBe(true);
    expect(at('$.__extras__.queries', 'gte', 3)).toBe(true);
    expect(at('$.__extras__.queries', 'lt', 3)).toBe(false);
    expect(at('$.__intent__', 'in', ['retrieve', 'count'])).toBe(true);
    expect(at('$.__payload__[0].title', 'contains', 'jam')).toBe(true);
    expect(at('$.__payload__[0].tags', 'contains', 'hw')).toBe(true);
    expect(at('$.__payload__[0].title', 'matches', '^Printer')).toBe(true);
    expect(at('$.__payload__[0].nothing', 'exists')).toBe(false);
    expect(at('$.__payload__[0].title', 'exists')).toBe(true);
    expect(at('$.__payload__[1].title', 'isNull')).toBe(true);
    expect(at('$.__payload__', 'type', 'array')).toBe(true);
    expect(at('$.__payload__[1].title', 'type', 'null')).toBe(true);
    expect(at('$.__payload__[0].tags', 'length', 1)).toBe(true);
    expect(at('$.__payload__[0]', 'eq', { id: 1, title: 'Printer jam', tags: ['hw'] })).toBe(true);
  });

  it('says in a sentence what was found and what was expected', () => {
    expect(evaluateAssertion({ target: 'extras.queries', op: 'lte', value: 2 }, ok)).toMatchObject({ passed: false, actual: 3, message: '__extras__.queries is 3; expected lte 2' });
    expect(evaluateAssertion({ target: 'payloadLength', op: 'eq', value: 1 }, { status: 502, body: undefined, roundTripMs: 1 }).message).toBe('the payload length is nothing; expected eq 1');
  });

  it('never runs script in a path', () => {
    const result = evaluateAssertion({ target: 'path', path: '$.__payload__[?(@.id > 0)]', op: 'exists' }, ok);
    expect(result.passed).toBe(false);
    expect(result.message).toMatch(/cannot be read/);
  });

  it('a path with a wildcard, `..`, a union or a slice always gives a list; a definite path gives the value itself', () => {
    const one: Answer = { status: 200, body: { ...envelope, __payload__: [{ id: 5, owner: { id: 9 } }] }, roundTripMs: 1 };
    const none: Answer = { status: 200, body: { ...envelope, __payload__: [] }, roundTripMs: 1 };
    const actual = (path: string, answer: Answer = ok) => evaluateAssertion({ target: 'path', path, op: 'exists' }, answer).actual;
    // One match through a wildcard or `..` is a list of one, however the path is written.
    expect(actual('$.__payload__[*].id', one)).toEqual([5]);
    expect(actual('$..owner', one)).toEqual([{ id: 9 }]);
    expect(actual('$.__payload__..id', one)).toEqual([5, 9]);
    expect(actual('$.__payload__[0:1].id', one)).toEqual([5]);
    expect(actual('$.__payload__[0,1].id')).toEqual([1, 2]);
    // `..` that matches at its own level only (jsonpath-plus alone answered the bare value here).
    expect(actual('$..__intent__')).toEqual(['retrieve']);
    // No match is an empty list, not nothing: `length` 0 passes, `exists` says a list was found.
    expect(actual('$.__payload__[*].id', none)).toEqual([]);
    expect(passes({ target: 'path', path: '$.__payload__[*].id', op: 'length', value: 0 }, none)).toBe(true);
    expect(passes({ target: 'path', path: '$.__payload__[*].id', op: 'eq', value: [5] }, one)).toBe(true);
    // A definite path is the value itself, or nothing.
    expect(actual('$.__payload__[0].id', one)).toBe(5);
    expect(actual('$.__payload__[0].owner', one)).toEqual({ id: 9 });
    expect(actual('$.__payload__[3].id', one)).toBeUndefined();
    expect(actual("$['__intent__']")).toBe('retrieve');
    // A list path that matched nothing captured nothing.
    expect(capture([{ variable: 'ids', path: '$.__payload__[*].id' }], none).missing).toEqual(['capture "ids": nothing at $.__payload__[*].id']);
  });

  it('captures values for later requests and names what it could not find', () => {
    expect(capture([{ variable: 'firstId', path: '$.__payload__[0].id' }, { variable: 'gone', path: '$.__payload__[9].id' }], ok)).toEqual({
      values: { firstId: 1 },
      missing: ['capture "gone": nothing at $.__payload__[9].id'],
    });
  });
});
