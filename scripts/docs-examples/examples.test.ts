import { describe, expect, it } from 'vitest';
import { matchJson, matchText } from './answer-match.ts';
import { readExamples, substitute } from './examples.ts';

const doc = (...lines: string[]) => lines.join('\n');

describe('reading the examples of a document', () => {
  it('pairs each request with the answer after it and keeps the heading it stands under', () => {
    const examples = readExamples(
      doc('## Counting', '', '```http', 'POST /jql?envelope=flat', 'Content-Type: application/json', '', '{"a": 1}', '```', '', 'Prose.', '', '```http', 'HTTP/1.1 200 OK', 'Retry-After: …', '', '{"b": 2}', '```', '```json', '{"not": "an example"}', '```'),
    );
    expect(examples).toEqual([
      {
        kind: 'http',
        line: 3,
        section: 'Counting',
        request: { method: 'POST', path: '/jql?envelope=flat', headers: [['content-type', 'application/json']], body: '{"a": 1}' },
        answer: { status: 200, headers: [['retry-after', '…']], body: '{"b": 2}' },
      },
    ]);
  });

  it('reads a websocket conversation', () => {
    const [example] = readExamples(doc('```websocket', 'WS /jql-streams', '# sign in first', '> {"type": "ping"}', '< {"type": "pong"}', '< close 4008', '```'));
    expect(example).toMatchObject({ kind: 'stream', steps: [{ kind: 'open', path: '/jql-streams' }, { kind: 'send', text: '{"type": "ping"}' }, { kind: 'receive', text: '{"type": "pong"}' }, { kind: 'close', code: 4008 }] });
  });

  it('refuses a request without its answer, an answer without a request, and a stray websocket line', () => {
    expect(() => readExamples(doc('```http', 'GET /healthz', '```'))).toThrow(/line 1: a request must be followed by its answer/);
    expect(() => readExamples(doc('```http', 'HTTP/1.1 200 OK', '```'))).toThrow(/line 1: an answer with no request/);
    expect(() => readExamples(doc('```websocket', 'send {}', '```'))).toThrow(/line 2: a websocket line/);
    expect(() => readExamples(doc('```http', 'GET /healthz'))).toThrow(/never closed/);
  });

  it('substitutes captured values and refuses a name nothing captured', () => {
    const values = new Map<string, unknown>([['token', 'abc'], ['id', 301]]);
    expect(substitute('Bearer {{token}} {"id": {{id}}}', values)).toBe('Bearer abc {"id": 301}');
    expect(() => substitute('{{missing}}', values)).toThrow(/{{missing}} is used before an answer captured it/);
  });
});

describe('matching a documented answer', () => {
  it('is exact where the docs do not say otherwise', () => {
    expect(matchJson({ a: 1, b: [1, 2] }, { a: 1, b: [1, 2] }).mismatches).toEqual([]);
    expect(matchJson({ a: 1 }, { a: 1, extra: true }).mismatches).toEqual(['$: unexpected key "extra" (add "…": "…" to show an object in part)']);
    expect(matchJson({ b: [1, 2] }, { b: [1, 2, 3] }).mismatches).toEqual(['$.b: expected 2 elements, got 3']);
    expect(matchJson({ a: '1' }, { a: 1 }).mismatches).toEqual(['$.a: expected "1", got 1']);
    expect(matchJson({ a: null }, {}).mismatches).toEqual(['$: missing key "a"']);
  });

  it('takes … for any value, a prefix, more keys or more elements', () => {
    expect(matchJson({ a: '…', b: 'eyJ…', c: { x: 1, '…': '…' }, d: [1, '…'] }, { a: [1], b: 'eyJhbG', c: { x: 1, y: 2 }, d: [1, 2, 3] }).mismatches).toEqual([]);
    expect(matchJson({ b: 'eyJ…' }, { b: 'abc' }).mismatches).toEqual(['$.b: expected a string starting "eyJ", got "abc"']);
    expect(matchJson({ d: [1, 2, '…'] }, { d: [1] }).mismatches).toEqual(['$.d: expected at least 2 elements, got 1', '$.d[1]: expected 2, got nothing']);
    expect(matchJson({ a: '…' }, {}).mismatches).toEqual(['$: missing key "a"']);
  });

  it('captures the values marked {{name}}', () => {
    const match = matchJson({ token: '{{token}}', user: { id: '{{userId}}' } }, { token: 'abc', user: { id: 7 } });
    expect(match.mismatches).toEqual([]);
    expect([...match.captured]).toEqual([['token', 'abc'], ['userId', 7]]);
  });

  it('compares text answers exactly or by prefix', () => {
    expect(matchText('hello\n', 'hello')).toEqual([]);
    expect(matchText('hel…', 'hello')).toEqual([]);
    expect(matchText('hello', 'help')).toHaveLength(1);
  });
});
