import { describe, expect, it } from 'vitest';
import { jsonTokens } from './raw-tokens.ts';

const kinds = (text: string) => jsonTokens(text).map((t) => [text.slice(t.start, t.end), t.kind]);

describe('the raw body’s JSON tokens', () => {
  it('tells keys from strings, and finds numbers and literals', () => {
    expect(kinds('{"id": 7, "title": "a \\"quoted\\" one", "ok": true, "n": null, "x": -1.5e3}')).toEqual([
      ['"id"', 'key'],
      ['7', 'number'],
      ['"title"', 'key'],
      ['"a \\"quoted\\" one"', 'string'],
      ['"ok"', 'key'],
      ['true', 'literal'],
      ['"n"', 'key'],
      ['null', 'literal'],
      ['"x"', 'key'],
      ['-1.5e3', 'number'],
    ]);
  });

  it('reads a pretty-printed body and one cut short', () => {
    expect(kinds('{\n  "a" : [1, "b"]\n}')).toEqual([
      ['"a"', 'key'],
      ['1', 'number'],
      ['"b"', 'string'],
    ]);
    expect(kinds('{"a": "cut sho')).toEqual([['"a"', 'key']]);
  });

  it('stops at the limit', () => {
    expect(jsonTokens('[1,2,3,4]', 2)).toHaveLength(2);
  });
});
