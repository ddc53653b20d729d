// POST /jql refuses JSON nested deeper than MAX_JSON_DEPTH before parsing it, whatever else the text holds.
import { describe, expect, it } from 'vitest';
import { JqlFailure } from '../errors.ts';
import { MAX_JSON_DEPTH, jsonDepthExceeds, parseJsonBody } from './json-body.ts';

const nested = (depth: number, open = '{"a":', close = '}') => `${open.repeat(depth - 1)}{}${close.repeat(depth - 1)}`;

describe('the JSON depth check', () => {
  it('takes exactly MAX_JSON_DEPTH levels, of objects or arrays, and refuses one more', () => {
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1, '[', ']'), MAX_JSON_DEPTH)).toBe(true);
    expect(() => parseJsonBody(nested(MAX_JSON_DEPTH + 1))).toThrow(JqlFailure);
    expect(parseJsonBody(nested(3))).toEqual({ a: { a: {} } });
  });

  it('counts nesting, not brackets: many siblings, and brackets inside strings, are not depth', () => {
    const siblings = JSON.stringify({ list: Array.from({ length: 500 }, () => ({ x: [1] })) });
    expect(jsonDepthExceeds(siblings, MAX_JSON_DEPTH)).toBe(false);
    const inStrings = JSON.stringify({ text: '{['.repeat(500), quoted: '\\"{{{{' });
    expect(jsonDepthExceeds(inStrings, MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds(`{"s":"${'{'.repeat(200)}","deep":${nested(MAX_JSON_DEPTH)}}`, MAX_JSON_DEPTH)).toBe(true);
  });
});
