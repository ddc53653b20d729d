import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../shared/protocol.ts';
import { flattenTree } from './json-tree-model.ts';
import { currentOf, step, tableMatches, textMatches, treeMatches } from './response-search.ts';
import { columnsOf, sortedOrder } from './table-model.ts';

const ROWS: JsonValue[] = [
  { id: 1, title: 'Printer jams', status: 'open', assignee: { username: 'grace' } },
  { id: 2, title: 'Login fails', status: 'closed', assignee: null },
  { id: 3, title: 'printer out of toner', status: 'open', assignee: { username: 'alan' } },
];

describe('search inside a response', () => {
  it('finds cells in the table’s order, any case, nested values as JSON', () => {
    const columns = columnsOf(ROWS);
    expect(tableMatches(ROWS, sortedOrder(ROWS, null), columns, 'PRINTER')).toEqual([
      { row: 0, column: 'title' },
      { row: 2, column: 'title' },
    ]);
    // Sorted by id descending: row 2 comes first.
    expect(tableMatches(ROWS, sortedOrder(ROWS, { column: 'id', direction: 'desc' }), columns, 'printer').map((m) => m.row)).toEqual([2, 0]);
    expect(tableMatches(ROWS, sortedOrder(ROWS, null), columns, 'grace')).toEqual([{ row: 0, column: 'assignee' }]);
    expect(tableMatches(ROWS, sortedOrder(ROWS, null), columns, 'null')).toEqual([{ row: 1, column: 'assignee' }]);
    expect(tableMatches(ROWS, sortedOrder(ROWS, null), columns, '')).toEqual([]);
  });

  it('finds tree rows by key or value, with what to open to show each', () => {
    const found = treeMatches(ROWS, 'alan');
    expect(found).toEqual([{ id: '/2/assignee/username', reveal: ['', '/2', '/2/assignee'] }]);
    // Opening what `reveal` names makes the row appear.
    const rows = flattenTree(ROWS, new Set(found[0]!.reveal));
    expect(rows.some((r) => r.id === '/2/assignee/username')).toBe(true);
    expect(treeMatches(ROWS, 'username').map((m) => m.id)).toEqual(['/0/assignee/username', '/2/assignee/username']);
  });

  it('opens the chunk group a match sits in, in a long array', () => {
    const long: JsonValue = Array.from({ length: 250 }, (_, i) => ({ n: i === 173 ? 'needle' : 'hay' }));
    const [match] = treeMatches(long, 'needle');
    expect(match).toEqual({ id: '/173/n', reveal: ['', '#100', '/173'] });
    expect(flattenTree(long, new Set(match!.reveal)).some((r) => r.id === '/173/n')).toBe(true);
  });

  it('walks a very deep answer without overflowing the stack, and stops at the limit', () => {
    let deep: JsonValue = 'bottom';
    for (let i = 0; i < 20_000; i++) deep = { k: deep };
    expect(treeMatches(deep, 'bottom')).toHaveLength(1);
    const many: JsonValue = Array.from({ length: 50 }, () => 'x');
    expect(treeMatches(many, 'x', 100, 10)).toHaveLength(10);
  });

  it('finds every occurrence in the raw text, and steps through them around the ends', () => {
    expect(textMatches('aXa xa XA', 'xa')).toEqual([
      { start: 1, end: 3 },
      { start: 4, end: 6 },
      { start: 7, end: 9 },
    ]);
    expect(step(2, 3, 1)).toBe(0);
    expect(step(0, 3, -1)).toBe(2);
    expect(currentOf(['a', 'b'], { query: 'x', index: 5 })).toBe('b');
    expect(currentOf([], { query: 'x', index: 0 })).toBeNull();
  });
});
