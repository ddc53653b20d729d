// The reference evaluator is the oracle of filter-oracle.property.test.ts: its own rules, checked
// against the contract's examples (docs/protocol.md "`__meta__` keys").
import { describe, expect, it } from 'vitest';
import { RefRefusal, referenceFilter, referenceOrder, type RefData, type RefRow } from './reference-filter.ts';

const data: RefData = {
  models: {
    'a.Task': { fields: { priority: { type: 'integer' }, title: { type: 'string' }, owner: { type: 'ref', to: 'a.User' } } },
    'a.User': { fields: { name: { type: 'string' } } },
  },
  rows: {
    'a.Task': [
      { id: 1, priority: 5, title: 'Fix 100%', owner: 1 },
      { id: 2, priority: null, title: 'fix_it', owner: 2 },
      { id: 3, priority: 2, title: null, owner: 9 },
    ] as RefRow[],
    'a.User': [{ id: 1, name: 'ann' }, { id: 2, name: null }] as RefRow[],
  },
};
const ids = (query: Parameters<typeof referenceFilter>[2]) => referenceFilter(data, 'a.Task', query).map((row) => row.id);

describe('the reference evaluator', () => {
  it('keeps NULLs with ne, and reads ne null as IS NOT NULL', () => {
    expect(ids({ filter: { priority__ne: 5 } })).toEqual([2, 3]);
    expect(ids({ filter: { priority__ne: null } })).toEqual([1, 3]);
    expect(ids({ filter: { priority: null } })).toEqual([2]);
  });

  it('keeps a record whose value is NULL out of exclude’s reach', () => {
    expect(ids({ exclude: { priority__gte: 3 } })).toEqual([2, 3]);
    expect(ids({ exclude: { priority__gte: 1, title__icontains: 'fix' } })).toEqual([2, 3]);
  });

  it('reads a path through a missing reference as NULL', () => {
    expect(ids({ filter: { 'owner.name__isnull': true } })).toEqual([2, 3]);
    expect(ids({ filter: { owner__name: 'ann' } })).toEqual([1]);
    expect(ids({ filter: { owner__isnull: false } })).toEqual([1, 2, 3]);
  });

  it('matches % and _ literally, case-insensitively only in the i forms', () => {
    expect(ids({ filter: { title__icontains: '100%' } })).toEqual([1]);
    expect(ids({ filter: { title__contains: 'fix' } })).toEqual([2]);
    expect(ids({ filter: { title__istartswith: 'FIX' } })).toEqual([1, 2]);
    expect(ids({ filter: { priority__in: [] } })).toEqual([]);
    expect(ids({ filter: { priority__range: [2, 5] } })).toEqual([1, 3]);
  });

  it('refuses a value of the wrong type whatever the rows', () => {
    expect(() => ids({ filter: { priority: 'high' } })).toThrow(RefRefusal);
    expect(() => ids({ filter: { priority__in: 5 } })).toThrow(RefRefusal);
    expect(() => ids({ filter: { title__isnull: 'yes' } })).toThrow(RefRefusal);
  });

  it('orders NULLs first ascending and last descending, ties by id', () => {
    const rows = data.rows['a.Task'] as RefRow[];
    expect(referenceOrder(data, 'a.Task', rows, ['priority']).map((row) => row.id)).toEqual([2, 3, 1]);
    expect(referenceOrder(data, 'a.Task', rows, ['-priority']).map((row) => row.id)).toEqual([1, 3, 2]);
    expect(referenceOrder(data, 'a.Task', rows, ['-owner.name']).map((row) => row.id)).toEqual([1, 2, 3]);
  });
});
