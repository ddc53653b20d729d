import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../shared/protocol.ts';
import { cellText, columnWidths, columnsOf, compareValues, copyText, moveSelection, nextSort, sortedOrder, tableRows, VALUE_COLUMN } from './table-model.ts';

describe('tableRows and columnsOf', () => {
  it('puts id first and keeps first-seen order', () => {
    const rows: Array<Record<string, JsonValue>> = [{ title: 'a', id: 1 }, { id: 2, status: 'open' }];
    expect(columnsOf(rows)).toEqual(['id', 'title', 'status']);
  });

  it('shows a single record as one row and scalars in a value column', () => {
    expect(tableRows({ id: 1 })).toEqual([{ id: 1 }]);
    expect(tableRows(3)).toBeNull();
    expect(columnsOf([1, 2])).toEqual([VALUE_COLUMN]);
    expect(columnsOf([1, { id: 1 }])).toEqual([VALUE_COLUMN, 'id']);
  });

  it('scans only a prefix of a huge payload', () => {
    const rows: JsonValue[] = Array.from({ length: 100_000 }, (_, i) => ({ id: i }));
    rows.push({ id: 0, late: true });
    expect(columnsOf(rows)).toEqual(['id']);
  });
});

describe('sorting', () => {
  const rows: Array<Record<string, JsonValue>> = [
    { id: 1, p: 3, t: 'b' },
    { id: 2, p: null, t: 'a' },
    { id: 3, p: 10, t: 'B' },
    { id: 4, t: 'c' },
    { id: 5, p: 3, t: 'd' },
  ];

  it('orders numbers numerically with nulls first, stably', () => {
    expect(sortedOrder(rows, { column: 'p', direction: 'asc' }).map((i) => rows[i]!.id)).toEqual([2, 4, 1, 5, 3]);
    expect(sortedOrder(rows, { column: 'p', direction: 'desc' }).map((i) => rows[i]!.id)).toEqual([3, 1, 5, 2, 4]);
  });

  it('orders strings by code point', () => {
    expect(sortedOrder(rows, { column: 't', direction: 'asc' }).map((i) => rows[i]!.t)).toEqual(['B', 'a', 'b', 'c', 'd']);
  });

  it('keeps the server order without a sort', () => {
    expect(sortedOrder(rows, null)).toEqual([0, 1, 2, 3, 4]);
  });

  it('cycles asc, desc, none', () => {
    expect(nextSort(null, 'a')).toEqual({ column: 'a', direction: 'asc' });
    expect(nextSort({ column: 'a', direction: 'asc' }, 'a')).toEqual({ column: 'a', direction: 'desc' });
    expect(nextSort({ column: 'a', direction: 'desc' }, 'a')).toBeNull();
    expect(nextSort({ column: 'a', direction: 'desc' }, 'b')).toEqual({ column: 'b', direction: 'asc' });
  });

  it('sorts 100,000 rows quickly', () => {
    const big = Array.from({ length: 100_000 }, (_, i) => ({ id: i, v: (i * 7919) % 1000 }));
    const started = performance.now();
    const order = sortedOrder(big, { column: 'v', direction: 'asc' });
    expect(performance.now() - started).toBeLessThan(1500);
    expect(big[order[0]!]!.v).toBe(0);
  });

  it('compares mixed types by kind', () => {
    expect(compareValues(null, 1)).toBeLessThan(0);
    expect(compareValues('1', 1)).toBeGreaterThan(0);
    expect(compareValues({ a: 1 }, { a: 2 })).toBeLessThan(0);
  });
});

describe('cell text', () => {
  it('summarizes nested values and copies them as JSON', () => {
    expect(cellText({ username: 'a', id: 1 })).toBe('{…} username, id');
    expect(cellText([1, 2])).toBe('[…] 2 items');
    expect(cellText(null)).toBe('null');
    expect(cellText(undefined)).toBe('');
    expect(cellText('x'.repeat(500)).length).toBe(301);
    expect(copyText({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(copyText('plain')).toBe('plain');
  });
});

describe('columnWidths', () => {
  it('fits short values, widens for long ones and caps at the maximum', () => {
    const rows: JsonValue[] = [{ id: 1, title: 'A fairly long ticket title', body: 'x'.repeat(500) }];
    const [id, title, body] = columnWidths(rows, ['id', 'title', 'body']);
    expect(id).toBe(56);
    expect(title).toBeGreaterThan(180);
    expect(body).toBe(340);
  });
});

describe('moving the selected cell with the keyboard', () => {
  const order = [2, 0, 1];
  const columns = ['id', 'title'];
  it('starts at the first cell and moves in the shown order, staying inside the table', () => {
    expect(moveSelection('ArrowDown', null, order, columns)).toEqual({ row: 2, column: 'id' });
    expect(moveSelection('ArrowDown', { row: 2, column: 'id' }, order, columns)).toEqual({ row: 0, column: 'id' });
    expect(moveSelection('ArrowRight', { row: 0, column: 'id' }, order, columns)).toEqual({ row: 0, column: 'title' });
    expect(moveSelection('ArrowRight', { row: 0, column: 'title' }, order, columns)).toEqual({ row: 0, column: 'title' });
    expect(moveSelection('ArrowUp', { row: 2, column: 'id' }, order, columns)).toEqual({ row: 2, column: 'id' });
    expect(moveSelection('End', { row: 2, column: 'title' }, order, columns)).toEqual({ row: 1, column: 'title' });
    expect(moveSelection('Home', { row: 1, column: 'id' }, order, columns)).toEqual({ row: 2, column: 'id' });
    expect(moveSelection('a', { row: 1, column: 'id' }, order, columns)).toBeNull();
    expect(moveSelection('ArrowDown', null, [], columns)).toBeNull();
  });
});
