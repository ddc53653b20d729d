// A broken workspace file names the line and column of its first mistake, with one sentence, for
// every kind of JSON mistake (JSON.parse names a position for some of them only).
import { describe, expect, it } from 'vitest';
import { locateJsonError } from './json-error-position.ts';

describe('locateJsonError', () => {
  it('puts an unexpected end at the end of the file', () => {
    expect(locateJsonError('{\n  "apps": {\n    "notes": \n')).toEqual({ line: 4, column: 1, sentence: 'the file ends where a value (an object, array, string, number, true, false or null) was expected: the JSON is incomplete' });
    expect(locateJsonError('{"apps": {}')).toMatchObject({ line: 1, column: 12, sentence: expect.stringContaining('the file ends where "," or "}" was expected') });
    expect(locateJsonError('')).toMatchObject({ line: 1, column: 1 });
    expect(locateJsonError('{"name": "cut')).toMatchObject({ line: 1, column: 14, sentence: expect.stringContaining('closing quote is missing') });
  });

  it('names the line and column of each other kind of mistake', () => {
    const cases: Array<[string, number, number, RegExp]> = [
      ['{\n  "a": tru\n}', 2, 8, /a value .* was expected, found "t"/],
      ['{\n  "a": 1,\n}', 3, 1, /a property name in double quotes was expected, found "}"/],
      ['[1,]', 1, 4, /a value .* was expected, found "]"/],
      ['{"a" 1}', 1, 6, /":" after the property name was expected, found "1"/],
      ['{"a": 1 "b": 2}', 1, 9, /"," or "}" was expected, found "\\""/],
      ['{"a": 1}}', 1, 9, /more text after the end of the JSON value/],
      ['{"a": "x\ny"}', 1, 9, /line break or another control character/],
      ['{"a": "\\q"}', 1, 8, /escape JSON does not know/],
      ['{"a": 01}', 1, 7, /number is malformed/],
      ['{"a": -}', 1, 7, /number is malformed/],
      ["{'a': 1}", 1, 2, /a property name in double quotes was expected, found "'"/],
    ];
    for (const [text, line, column, sentence] of cases) {
      expect(() => JSON.parse(text)).toThrow();
      const found = locateJsonError(text);
      expect(found, text).toMatchObject({ line, column });
      expect(found?.sentence, text).toMatch(sentence);
    }
  });

  it('finds nothing in valid JSON, whatever its escapes and numbers', () => {
    for (const text of ['{}', ' [1, -2.5e+3, 0, true, false, null] ', '{"a": "\\u00e9\\n\\"", "b": {"c": []}}']) expect(locateJsonError(text)).toBeNull();
  });
});
