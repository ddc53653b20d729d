import { describe, expect, it } from 'vitest';
import { findByPath, listKeys, sameKey } from './json-locate.ts';

const doc = `{
  "__meta__": {
    "namespace": "tickets.Ticket", // a comment
    "intent": "retrieve",
    "filter": {"priorty__gte": 3, "title": "a\\"b"},
    "ordering": ["-id", {"x": 1}]
  },
  "title": null
}`;

describe('listKeys', () => {
  it('lists every key with its path and offsets', () => {
    const keys = listKeys(doc);
    expect(keys.map((k) => k.path.join('/'))).toEqual([
      '__meta__',
      '__meta__/namespace',
      '__meta__/intent',
      '__meta__/filter',
      '__meta__/filter/priorty__gte',
      '__meta__/filter/title',
      '__meta__/ordering',
      '__meta__/ordering/1/x',
      'title',
    ]);
    const priority = keys.find((k) => k.key === 'priorty__gte')!;
    expect(doc.slice(priority.keyStart, priority.keyEnd)).toBe('"priorty__gte"');
    expect(doc.slice(priority.valueStart, priority.valueEnd)).toBe('3');
    const filter = keys.find((k) => k.key === 'filter')!;
    expect(doc.slice(filter.valueStart, filter.valueEnd)).toBe('{"priorty__gte": 3, "title": "a\\"b"}');
  });

  it('returns the keys read before a syntax error', () => {
    const keys = listKeys('{"__meta__": {"namespace": "x", "inte');
    expect(keys.map((k) => k.key)).toEqual(['__meta__', 'namespace']);
    expect(listKeys('{"a": 1, "b"').map((k) => k.key)).toEqual(['a', 'b']);
    expect(listKeys('')).toEqual([]);
  });
});

describe('findByPath', () => {
  it('matches camelCase against snake_case and stops at array indices', () => {
    const keys = listKeys('{"__meta__": {"uniqueObject": {"id": 1}, "ordering": ["-x"]}}');
    expect(findByPath(keys, ['__meta__', 'unique_object', 'id'])?.key).toBe('id');
    expect(findByPath(keys, ['__meta__', 'ordering', 0])?.key).toBe('ordering');
    expect(findByPath(keys, ['nope'])).toBeUndefined();
    expect(findByPath(keys, [])).toBeUndefined();
  });

  it('compares names', () => {
    expect(sameKey('firstName', 'first_name')).toBe(true);
    expect(sameKey('sideEffects', 'side_effects')).toBe(true);
    expect(sameKey(0, '0')).toBe(true);
    expect(sameKey('a', 'b')).toBe(false);
  });
});
