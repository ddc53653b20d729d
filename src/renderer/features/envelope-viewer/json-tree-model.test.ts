import { describe, expect, it } from 'vitest';
import { flattenTree, initialExpansion } from './json-tree-model.ts';

describe('flattenTree', () => {
  const doc = [{ id: 1, assignee: { username: 'a/b' }, tags: [] }];

  it('shows only expanded nodes', () => {
    const collapsed = flattenTree(doc, new Set());
    expect(collapsed.map((r) => r.id)).toEqual(['']);
    expect(collapsed[0]).toMatchObject({ kind: 'array', preview: 'Array(1)', expandable: true, expanded: false });

    const rows = flattenTree(doc, new Set(['', '/0', '/0/assignee']));
    expect(rows.map((r) => [r.id, r.depth, r.label, r.preview])).toEqual([
      ['', 0, null, 'Array(1)'],
      ['/0', 1, '0', '{id, assignee, tags}'],
      ['/0/id', 2, 'id', '1'],
      ['/0/assignee', 2, 'assignee', '{username}'],
      ['/0/assignee/username', 3, 'username', '"a/b"'],
      ['/0/tags', 2, 'tags', 'Array(0)'],
    ]);
    expect(rows.find((r) => r.id === '/0/tags')?.expandable).toBe(false);
  });

  it('groups many children and materializes only open groups', () => {
    const big = Array.from({ length: 100_000 }, (_, i) => i);
    const rows = flattenTree(big, new Set(['', '#200']));
    expect(rows).toHaveLength(1 + 1000 + 100);
    expect(rows[1]).toMatchObject({ id: '#0', kind: 'group', label: '[0 … 99]', depth: 1 });
    const firstOfGroup = rows.findIndex((r) => r.id === '#200') + 1;
    expect(rows[firstOfGroup]).toMatchObject({ id: '/200', label: '200', depth: 2, preview: '200' });
  });

  it('groups the keys of a large object too', () => {
    const obj = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`k${i}`, i]));
    const rows = flattenTree(obj, new Set(['', '#200']));
    expect(rows.filter((r) => r.kind === 'group')).toHaveLength(3);
    expect(rows.at(-1)).toMatchObject({ id: '/k249', label: 'k249' });
  });

  it('opens the root and the first short-array record by default', () => {
    expect([...initialExpansion([{}])]).toEqual(['', '/0']);
    expect([...initialExpansion({ a: 1 })]).toEqual(['']);
  });
});

describe('a string over 1 MiB (issue 22.9)', () => {
  it('is drawn cut, with its full length for "show all"', () => {
    const long = 's'.repeat(50 * 1024 * 1024);
    const rows = flattenTree([{ id: 1, body: long }], new Set(['', '/0']));
    const body = rows.find((r) => r.label === 'body')!;
    expect(body.longString).toBe(long.length);
    expect(body.preview.length).toBeLessThan(1100);
    expect(body.value).toBe(long);
    expect(rows.find((r) => r.label === 'id')!.longString).toBeUndefined();
  });
});
