import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../shared/protocol.ts';
import { diffPayloads, fieldChanges, jsonEqual } from './record-diff.ts';
import { compareExtras, countChanges, diffResults, runDiff, sideFromBody, sideFromFailure, type DiffSide } from './result-diff.ts';

const envelope = (payload: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ __payload__: payload, __message__: null, __extras__: { filtered: 3, display: 3, queries: 1 }, __errors__: null, __system__: null, __intent__: 'retrieve', ...extra });
const flat = (data: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ status: 'OK', data, errors: null, il8n: 'en', extras: { filtered: 3, display: 3, queries: 1 }, system_info: null, intent: 'retrieve', message: null, ...extra });

describe('jsonEqual', () => {
  it('ignores key order and compares deeply', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined as never })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual(1, '1' as never)).toBe(false);
  });
});

describe('diffPayloads', () => {
  it('matches records by id into added, removed and changed field by field', () => {
    const left: JsonValue[] = [
      { id: 1, title: 'A', status: 'open', assignee: { id: 7, username: 'ann' } },
      { id: 2, title: 'B', status: 'open' },
      { id: 3, title: 'C' },
    ];
    const right: JsonValue[] = [
      { id: 1, title: 'A', status: 'closed', assignee: { id: 7, username: 'bob' } },
      { status: 'open', title: 'B', id: 2 },
      { id: 4, title: 'D' },
    ];
    const d = diffPayloads(left, right);
    expect(d).toMatchObject({ mode: 'by-id', unchanged: 1, orderDiffers: false, same: false, notices: [] });
    expect(d.removed).toEqual([{ key: '3', record: { id: 3, title: 'C' } }]);
    expect(d.added).toEqual([{ key: '4', record: { id: 4, title: 'D' } }]);
    expect(d.changed.map((c) => [c.key, c.fields])).toEqual([
      [
        '1',
        [
          { path: 'status', left: 'open', right: 'closed' },
          { path: 'assignee.username', left: 'ann', right: 'bob' },
        ],
      ],
    ]);
  });

  it('tells a field that is missing on one side from a null', () => {
    expect(fieldChanges({ id: 1, a: null }, { id: 1, b: null })).toEqual([
      { path: 'a', left: null, right: undefined },
      { path: 'b', left: undefined, right: null },
    ]);
    expect(fieldChanges({ n: { x: 1 } }, { n: null })).toEqual([{ path: 'n', left: { x: 1 }, right: null }]);
    expect(fieldChanges({ tags: [1, 2] }, { tags: [2, 1] })).toEqual([{ path: 'tags', left: [1, 2], right: [2, 1] }]);
  });

  it('notes the same records in another order, and string vs number ids', () => {
    const d = diffPayloads([{ id: 1 }, { id: 2 }], [{ id: 2 }, { id: 1 }]);
    expect(d).toMatchObject({ orderDiffers: true, unchanged: 2, same: false, notices: ['The records common to both sides come in a different order.'] });
    const ids = diffPayloads([{ id: 1 }], [{ id: '1' }]);
    expect([ids.removed.map((r) => r.key), ids.added.map((r) => r.key)]).toEqual([['1'], ['"1"']]);
  });

  it('matches repeated ids in order and says so', () => {
    const d = diffPayloads([{ id: 1, v: 'a' }, { id: 1, v: 'b' }], [{ id: 1, v: 'a' }, { id: 1, v: 'c' }]);
    expect(d.changed.map((c) => [c.key, c.fields])).toEqual([['1#2', [{ path: 'v', left: 'b', right: 'c' }]]]);
    expect(d.notices).toEqual(['The left side repeats id 1: repeats are matched in order.', 'The right side repeats id 1: repeats are matched in order.']);
  });

  it('falls back to positions without ids (grouped rows, documents without id)', () => {
    const d = diffPayloads([{ status: 'open', count: 2 }], [{ status: 'open', count: 3 }, { status: 'closed', count: 1 }]);
    expect(d).toMatchObject({ mode: 'by-position', notices: ['Some records have no id: records are matched by position.'] });
    expect(d.changed.map((c) => [c.key, c.fields.map((f) => f.path)])).toEqual([['#0', ['count']]]);
    expect(d.added.map((a) => a.key)).toEqual(['#1']);
    expect(diffPayloads([], [])).toMatchObject({ same: true, notices: [] });
  });

  it('compares single records and plain values', () => {
    expect(diffPayloads({ id: 5, title: 'x' }, { id: 5, title: 'y' })).toMatchObject({ mode: 'single', changed: [{ key: '5', fields: [{ path: 'title' }] }], same: false });
    expect(diffPayloads({ id: 5 }, { id: 6 }).notices).toEqual(['The two sides answered different records (id 5 and 6).']);
    expect(diffPayloads({ count: 4 }, { count: 4 })).toMatchObject({ mode: 'single', unchanged: 1, same: true });
    expect(diffPayloads(3, 4)).toMatchObject({ mode: 'value', same: false, changed: [{ fields: [{ path: '(value)', left: 3, right: 4 }] }] });
    expect(diffPayloads(null, null)).toMatchObject({ mode: 'value', same: true });
    expect(diffPayloads([{ id: 1 }], { id: 1 })).toMatchObject({ mode: 'value', same: false });
  });
});

describe('diffResults', () => {
  it('reads both envelope shapes the same way', () => {
    const rows = [{ id: 1, title: 'A' }];
    const d = diffResults(sideFromBody('embedded', 200, 10, envelope(rows)), sideFromBody('remote', 200, 30, flat(rows)));
    expect(d.same).toBe(true);
    expect(d.sections).toHaveLength(1);
    expect(d.sections[0]?.payload?.same).toBe(true);
    expect(d.timing.find((t) => t.key === 'time (ms)')).toEqual({ key: 'time (ms)', left: 10, right: 30, same: false });
  });

  it('shows extras key by key, ignoring the SQL count for sameness', () => {
    expect(compareExtras({ filtered: 3, queries: 1, zeta: true }, { queries: 2, filtered: 4, notices: ['clamped'] })).toEqual([
      { key: 'filtered', left: 3, right: 4, same: false },
      { key: 'queries', left: 1, right: 2, same: false },
      { key: 'notices', left: undefined, right: ['clamped'], same: false },
      { key: 'zeta', left: true, right: undefined, same: false },
    ]);
    const rows = [{ id: 1 }];
    const d = diffResults(sideFromBody('a', 200, 1, envelope(rows)), sideFromBody('b', 200, 1, envelope(rows, { __extras__: { filtered: 3, display: 3, queries: 5 } })));
    expect(d.same).toBe(true);
  });

  it('puts errors side by side', () => {
    const forbidden = envelope(null, { __errors__: [{ code: 'forbidden', message: 'no' }], __extras__: null });
    const d = diffResults(sideFromBody('admin', 200, 1, envelope([{ id: 1 }])), sideFromBody('agent', 403, 1, forbidden));
    expect(d.same).toBe(false);
    expect(d.sections[0]?.errors).toEqual({ left: [], right: [{ code: 'forbidden', message: 'no' }] });
    expect(d.timing[0]).toMatchObject({ key: 'HTTP status', left: 200, right: 403, same: false });
  });

  it('tells answers apart by the count of errors past the 500 it reads', () => {
    const errors = (n: number) => Array.from({ length: n }, (_, i) => ({ code: 'not_found', message: `no ${i % 3}` }));
    const side = (n: number) => sideFromBody(String(n), 200, 1, envelope(null, { __errors__: errors(n), __extras__: null }));
    expect(diffResults(side(600), side(600)).same).toBe(true);
    const d = diffResults(side(600), side(700));
    expect(d.same).toBe(false);
    expect(d.sections[0]?.errors.left).toHaveLength(500);
  });

  it('matches multi-query sections by name', () => {
    const multi = (a: unknown, extraKey?: string) =>
      JSON.stringify({
        __payload__: { tickets: { data: a, extras: { filtered: 1 }, errors: null, intent: 'retrieve' }, ...(extraKey ? { [extraKey]: { data: { count: 1 }, errors: null, intent: 'count' } } : {}) },
        __intent__: 'multi',
        __errors__: null,
      });
    const d = diffResults(sideFromBody('l', 200, 1, multi([{ id: 1, t: 'x' }])), sideFromBody('r', 200, 1, multi([{ id: 1, t: 'y' }], 'n')));
    expect(d.sections.map((s) => [s.name, s.presentIn, s.payload?.changed.length ?? null])).toEqual([
      ['tickets', 'both', 1],
      ['n', 'right', null],
    ]);
    expect(countChanges(d)).toEqual({ added: 0, removed: 0, changed: 1, unchanged: 0 });
  });

  it('reports a side that did not answer, or answered something that is not JSON', () => {
    const d = diffResults(sideFromFailure('remote', 'Could not reach http://x'), sideFromBody('local', 502, 1, '<html>bad gateway</html>'));
    expect(d.requestErrors.left).toEqual(['Could not reach http://x']);
    expect(d.requestErrors.right[0]).toContain('not JSON');
    expect(d.sections).toEqual([]);
    expect(d.same).toBe(false);
  });

  it('counts SQL queries from the system info or the extras', () => {
    const withSystem = envelope([], { __system__: { queries: 4, time_ms: 2.5 } });
    const d = diffResults(sideFromBody('a', 200, 1, withSystem), sideFromBody('b', 200, 1, envelope([])));
    expect(d.timing.find((t) => t.key === 'SQL queries')).toMatchObject({ left: 4, right: 1 });
    expect(d.timing.find((t) => t.key === 'server time (ms)')).toMatchObject({ left: 2.5, right: null });
  });
});

describe('runDiff', () => {
  it('runs both sides at once and turns a throw into a failed side', async () => {
    const calls: string[] = [];
    const run = async (id: string, doc: string): Promise<DiffSide> => {
      calls.push(`${id}:${doc}`);
      if (id === 'bad') throw new Error('refused');
      return sideFromBody(id, 200, 1, envelope([{ id: 1 }]));
    };
    const d = await runDiff(run, '{"q":1}', { id: 'good', label: 'Good' }, { id: 'bad', label: 'Bad' });
    expect(calls).toEqual(['good:{"q":1}', 'bad:{"q":1}']);
    expect(d.right).toMatchObject({ label: 'Bad', status: 0, failure: 'refused' });
    expect(d.requestErrors.right).toEqual(['refused']);
  });
});
