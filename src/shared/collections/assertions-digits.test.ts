import { describe, expect, it } from 'vitest';
import { evaluateAssertion, keepingDigits, type Answer } from './assertions.ts';
import { parseRequestFile, serializeRequestFile, type Assertion } from './format.ts';
import { runRequests } from './run.ts';

// Two ids a double cannot tell apart: both read as 9007199254740992 through JSON.parse.
const text = '{"__payload__":[{"id":9007199254740993,"n":12345678901234567890}],"__errors__":null,"__extras__":{}}';
const answer: Answer = keepingDigits({ status: 200, body: JSON.parse(text), text, roundTripMs: 1 });

/** An assertion as a request file holds it: read from its text, as the runner reads it. */
function fromFile(assertion: string): Assertion {
  const parsed = parseRequestFile(`{"document":{},"assertions":[${assertion}]}`, 'r.jql.json');
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.value.assertions[0]!;
}
const passes = (assertion: string): boolean => evaluateAssertion(fromFile(assertion), answer).passed;

describe('assertions on numbers a double cannot hold (issue 31)', () => {
  it('eq and neq compare the digits the server sent', () => {
    expect(passes('{"target":"path","path":"$.__payload__[0].id","op":"eq","value":9007199254740993}')).toBe(true);
    expect(passes('{"target":"path","path":"$.__payload__[0].id","op":"eq","value":9007199254740992}')).toBe(false);
    expect(passes('{"target":"path","path":"$.__payload__[0].id","op":"neq","value":9007199254740992}')).toBe(true);
    expect(passes('{"target":"path","path":"$.__payload__[0]","op":"eq","value":{"n":12345678901234567890,"id":9007199254740993}}')).toBe(true);
    expect(passes('{"target":"path","path":"$.__payload__[0]","op":"eq","value":{"n":12345678901234567891,"id":9007199254740993}}')).toBe(false);
  });

  it('lt, lte, gt and gte order them by their digits', () => {
    expect(passes('{"target":"path","path":"$.__payload__[0].id","op":"gt","value":9007199254740992}')).toBe(true);
    expect(passes('{"target":"path","path":"$.__payload__[0].id","op":"gte","value":9007199254740994}')).toBe(false);
    expect(passes('{"target":"path","path":"$.__payload__[0].id","op":"lt","value":9007199254740994}')).toBe(true);
    expect(passes('{"target":"path","path":"$.__payload__[0].id","op":"lte","value":9007199254740992}')).toBe(false);
    expect(passes('{"target":"path","path":"$.__payload__[0].n","op":"gt","value":12345678901234567889}')).toBe(true);
    expect(passes('{"target":"path","path":"$.__payload__[0].n","op":"lt","value":1e300}')).toBe(true);
    expect(passes('{"target":"path","path":"$.__payload__[0].n","op":"gt","value":-1e400}')).toBe(true);
  });

  it('in, contains and type see them as the numbers they are', () => {
    expect(passes('{"target":"path","path":"$.__payload__[0].id","op":"in","value":[1,9007199254740992]}')).toBe(false);
    expect(passes('{"target":"path","path":"$.__payload__[0].id","op":"in","value":[1,9007199254740993]}')).toBe(true);
    expect(passes('{"target":"path","path":"$.__payload__[*].id","op":"contains","value":9007199254740992}')).toBe(false);
    expect(passes('{"target":"path","path":"$.__payload__[*].id","op":"contains","value":9007199254740993}')).toBe(true);
    expect(passes('{"target":"path","path":"$.__payload__[0].id","op":"type","value":"number"}')).toBe(true);
    expect(passes('{"target":"path","path":"$.__payload__[0].id","op":"matches","value":"9"}')).toBe(false);
  });

  it('says the values with their digits when it fails', () => {
    const result = evaluateAssertion(fromFile('{"target":"path","path":"$.__payload__[0].id","op":"eq","value":9007199254740992}'), answer);
    expect(result.message).toBe('$.__payload__[0].id is 9007199254740993; expected eq 9007199254740992');
  });

  it('a request file keeps an assertion value\'s digits when written back', () => {
    const file = '{"document":{},"assertions":[{"target":"path","path":"$.x","op":"gte","value":9007199254740993}]}';
    const parsed = parseRequestFile(file, 'r.jql.json');
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(serializeRequestFile(parsed.value)).toContain('"value": 9007199254740993');
  });

  it('a run checks the answer it got as sent', async () => {
    const file = parseRequestFile('{"document":{},"assertions":[{"target":"path","path":"$.__payload__[0].id","op":"eq","value":9007199254740992}]}', 'r.jql.json');
    if (!file.ok) throw new Error(file.errors.join('; '));
    const report = await runRequests([{ path: 'r.jql.json', name: 'r', file: file.value }], {
      variables: {},
      send: async () => ({ status: 200, body: JSON.parse(text), text, roundTripMs: 1 }),
    });
    expect(report.results[0]?.passed).toBe(false);
  });
});
