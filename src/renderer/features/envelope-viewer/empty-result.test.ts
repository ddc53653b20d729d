import { describe, expect, it } from 'vitest';
import { appliedConditions } from './empty-result.ts';

describe('the conditions of an empty result', () => {
  it('are the filter, exclude and search of the query, in document order', () => {
    const body = JSON.stringify({ __meta__: { namespace: 'a.B', intent: 'retrieve', search: { value: 'x' }, filter: { status: 'gone' }, limit: 5 } });
    expect(appliedConditions(body, null)).toEqual({ entries: [['filter', { status: 'gone' }], ['search', { value: 'x' }]] });
  });

  it('are those of the subquery of a multi-query', () => {
    const body = JSON.stringify({ a: { __meta__: { namespace: 'a.B', intent: 'retrieve' } }, b: { __meta__: { namespace: 'a.B', intent: 'retrieve', exclude: { id: 1 } } } });
    expect(appliedConditions(body, 'b')).toEqual({ entries: [['exclude', { id: 1 }]] });
    expect(appliedConditions(body, 'a')).toEqual({ entries: [] });
  });

  it('are unknown for a body that is not a query', () => {
    expect(appliedConditions(undefined, null)).toBeNull();
    expect(appliedConditions('--boundary', null)).toBeNull();
    expect(appliedConditions('[1]', null)).toBeNull();
  });
});
