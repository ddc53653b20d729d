import { describe, expect, it } from 'vitest';
import { normalizeText } from './normalize-envelope.ts';
import { bigNumberText, isBigNumber, isOutOfRange, parseJsonKeepingNumbers, stringifyKeepingNumbers } from '../../shared/big-number.ts';
import type { JsonValue } from '../../shared/protocol.ts';
import { cellText, compareValues, copyText, sortedOrder } from '../features/envelope-viewer/table-model.ts';
import { flattenTree } from '../features/envelope-viewer/json-tree-model.ts';
import { tableMatches } from '../features/envelope-viewer/response-search.ts';

const BODY = '{"__meta__":{},"__payload__":[{"id":9007199254740993,"n":12345678901234567890,"x":1e400,"ok":1.5},{"id":9007199254740992,"n":2,"x":-1e-400,"ok":7}]}';

describe('numbers a double cannot hold (issue 31 item 4)', () => {
  it('keeps ids above 2^53 distinct, 20-digit integers exact and 1e400 as its text', () => {
    const rows = parseJsonKeepingNumbers(BODY) as { __payload__: Record<string, JsonValue>[] };
    const [a, b] = rows.__payload__;
    expect(cellText(a!.id)).toBe('9007199254740993');
    expect(cellText(b!.id)).toBe('9007199254740992');
    expect(cellText(a!.n)).toBe('12345678901234567890');
    expect(cellText(a!.x)).toBe('1e400');
    expect(isOutOfRange(a!.x as string)).toBe(true);
    expect(cellText(b!.x)).toBe('-1e-400');
    // Numbers that round-trip stay plain numbers.
    expect(a!.ok).toBe(1.5);
    expect(b!.n).toBe(2);
  });

  it('leaves a text without long digit runs to plain JSON.parse', () => {
    expect(parseJsonKeepingNumbers('{"a":[1,2.5,"\\ue0001"]}')).toEqual({ a: [1, 2.5, '\ue0001'] });
  });

  it('passes through the normalizer (what the parse worker clones back) unchanged', () => {
    const view = normalizeText(BODY, 200);
    const payload = structuredClone(view.sections[0]!.payload) as Record<string, JsonValue>[];
    expect(payload.map((r) => cellText(r.id))).toEqual(['9007199254740993', '9007199254740992']);
  });

  it('compares, sorts, copies and searches by the digits sent', () => {
    const big = parseJsonKeepingNumbers('[9007199254740993, 9007199254740992, 3, 12345678901234567890]') as JsonValue[];
    expect(compareValues(big[0], big[1])).toBeGreaterThan(0);
    expect(sortedOrder(big, { column: '(value)', direction: 'asc' })).toEqual([2, 1, 0, 3]);
    expect(copyText(big[0])).toBe('9007199254740993');
    expect(copyText({ id: big[0]! })).toBe('{\n  "id": 9007199254740993\n}');
    expect(stringifyKeepingNumbers(big)).toBe('[9007199254740993,9007199254740992,3,12345678901234567890]');
    expect(tableMatches(big.map((v) => ({ id: v })), [0, 1, 2, 3], ['id'], '740993').map((m) => m.row)).toEqual([0]);
  });

  it('pretty-prints (the Raw view, a copied row) with the digits sent', () => {
    expect(stringifyKeepingNumbers(parseJsonKeepingNumbers('{"id":9007199254740993,"x":1e400}'), 2)).toBe('{\n  "id": 9007199254740993,\n  "x": 1e400\n}');
  });

  it('shows the digits in the JSON tree', () => {
    const root = parseJsonKeepingNumbers('{"id":9007199254740993}') as JsonValue;
    const rows = flattenTree(root, new Set(['']));
    expect(rows.map((r) => r.preview)).toContain('9007199254740993');
  });

  it('recognises only its own marker', () => {
    expect(isBigNumber('\ue000123')).toBe(true);
    expect(isBigNumber('\ue000abc')).toBe(false);
    expect(isBigNumber('123')).toBe(false);
    expect(bigNumberText('\ue0001e400')).toBe('1e400');
  });
});
