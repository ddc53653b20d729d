import { describe, expect, it } from 'vitest';
import { parseEnvironmentFile, parseRequestFile, requestFileName, runOrder, serializeRequestFile, type RequestFile } from './format.ts';

const request = (over: Partial<RequestFile> = {}): RequestFile => ({ document: '{\n  "__meta__": {\n    "namespace": "a.B",\n    "intent": "retrieve"\n  }\n}', options: {}, assertions: [], captures: [], tags: [], ...over });

describe('collection files', () => {
  it('keeps the query document in its own key order, and one changed assertion is a one-line diff', () => {
    const multi = request({ document: '{"zeta": {"__meta__": {"namespace": "a.B", "intent": "count"}}, "alpha": {"__meta__": {"namespace": "a.B", "intent": "count"}}}' });
    const text = serializeRequestFile({ ...multi, assertions: [{ target: 'extras.queries', op: 'lte', value: 3 }] });
    expect(text.indexOf('"zeta"')).toBeLessThan(text.indexOf('"alpha"'));
    const changed = serializeRequestFile({ ...multi, assertions: [{ target: 'extras.queries', op: 'lte', value: 4 }] });
    const a = text.split('\n');
    const b = changed.split('\n');
    expect(a.length).toBe(b.length);
    expect(a.filter((line, i) => line !== b[i])).toEqual(['      "value": 3']);
  });

  it('keeps a document that is not JSON (a bare placeholder) as lines, and reads it back unchanged', () => {
    const document = '{\n  "__meta__": {"namespace": "tickets.Ticket", "intent": "retrieve", "limit": {{limit}}}\n}';
    const text = serializeRequestFile(request({ document }));
    expect(JSON.parse(text).documentLines).toEqual(document.split('\n'));
    const back = parseRequestFile(text, 'x.jql.json');
    expect(back.ok && back.value.document).toBe(document);
  });

  it('names every problem of a request file with where it is', () => {
    const parsed = parseRequestFile(
      JSON.stringify({
        document: {},
        assertions: [{ target: 'colour', op: 'eq', value: 1 }, { target: 'status', op: 'lt', value: 'x' }, { target: 'path', op: 'exists' }, { target: 'path', path: '$.a', op: 'matches', value: '(' }],
        captures: [{ variable: '1bad', path: 'no-dollar' }],
        options: { queryInfoLevel: 3, surprise: true },
        extra: 1,
      }),
      'bad.jql.json',
    );
    expect(parsed.ok).toBe(false);
    const errors = parsed.ok ? [] : parsed.errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        'bad.jql.json: unknown key "extra"',
        expect.stringContaining('bad.jql.json: "assertions"[0]: "target" must be one of'),
        'bad.jql.json: "assertions"[1]: "lt" compares with a number',
        'bad.jql.json: "assertions"[2]: a "path" target needs "path": a JSONPath starting with $',
        expect.stringContaining('bad.jql.json: "assertions"[3]: "matches":'),
        'bad.jql.json: "captures"[0]: "variable" must be a variable name',
        'bad.jql.json: "captures"[0]: "path" must be a JSONPath starting with $',
        'bad.jql.json: "options.queryInfoLevel" must be 1 or 2',
        'bad.jql.json: "options": unknown key "surprise"',
      ]),
    );
    expect(parseRequestFile('{"document": ', 'cut.jql.json')).toEqual({ ok: false, errors: [expect.stringContaining('cut.jql.json is not valid JSON')] });
  });

  it('refuses an environment that gives a secret a value, so a secret never sits in a file', () => {
    expect(parseEnvironmentFile(JSON.stringify({ variables: { token: 'x' }, secrets: ['token'] }), 'environments/prod.json')).toEqual({
      ok: false,
      errors: ['environments/prod.json: "token" is a secret, so its value cannot be in the file'],
    });
  });

  it('orders names the same way on every machine and makes safe file names', () => {
    expect(runOrder(['b', 'B', '10-x', '02-y', 'a'])).toEqual(['02-y', '10-x', 'B', 'a', 'b']);
    expect(requestFileName('../etc/passwd')).toBe('-etc-passwd.jql.json');
    expect(requestFileName('a\u0000b:c')).toBe('a-b-c.jql.json');
  });
});

describe('request files with 64-bit ids', () => {
  it('save and read a document\'s ids as their digits, not rounded to another record', () => {
    const saved = serializeRequestFile(request({ document: '{"filter": {"id": 9007199254740993, "ref": 12345678901234567890}}' }));
    expect(saved).toContain('"id": 9007199254740993');
    expect(saved).toContain('"ref": 12345678901234567890');
    const read = parseRequestFile(saved, 'read.jql.json');
    expect(read.ok && read.value.document).toBe('{\n  "filter": {\n    "id": 9007199254740993,\n    "ref": 12345678901234567890\n  }\n}');
  });
});
