import { describe, expect, it } from 'vitest';
import { findVariables, isVariableName, parseVariableValue, substituteVariables } from './variables.ts';

const sub = (text: string, vars: Record<string, unknown>) => substituteVariables(text, vars as never);

describe('substituteVariables', () => {
  it('fills an environment\'s 64-bit id in as its digits wherever it sits, not rounded to another id (issue 31 item 4)', () => {
    const vars = { id: parseVariableValue('9007199254740993'), ref: parseVariableValue(' 12345678901234567890 ') };
    expect(sub('{"filter": {"id": {{id}}, "ref": "{{ref}}"}, "title": "case {{id}}"}', vars)).toMatchObject({
      ok: true,
      text: '{"filter": {"id": 9007199254740993, "ref": 12345678901234567890}, "title": "case 9007199254740993"}',
    });
  });

  it('puts a whole-string variable in as its JSON value', () => {
    const doc = '{"__meta__": {"namespace": "tickets.Ticket", "intent": "retrieveOne", "uniqueObject": {"id": "{{ticketId}}"}}}';
    const result = sub(doc, { ticketId: 5 });
    expect(result).toEqual({ ok: true, text: doc.replace('"{{ticketId}}"', '5'), used: ['ticketId'] });
    expect(JSON.parse((result as { text: string }).text).__meta__.uniqueObject.id).toBe(5);
    expect(sub('{"a": "{{v}}"}', { v: { b: [1, 'x'] } })).toMatchObject({ text: '{"a": {"b":[1,"x"]}}' });
    expect(sub('{"a": "{{v}}"}', { v: 'plain' })).toMatchObject({ text: '{"a": "plain"}' });
    expect(sub('{"a": "{{v}}"}', { v: null })).toMatchObject({ text: '{"a": null}' });
  });

  it('escapes a variable inside a longer string', () => {
    expect(sub('{"title": "Bug {{n}} for {{who}}"}', { n: 7, who: 'Ann "A"\n' })).toMatchObject({ ok: true, text: '{"title": "Bug 7 for Ann \\"A\\"\\n"}' });
    const text = (sub('{"t": "x{{o}}"}', { o: { k: 'v' } }) as { text: string }).text;
    expect(JSON.parse(text)).toEqual({ t: 'x{"k":"v"}' });
  });

  it('writes a bare variable as JSON text', () => {
    expect(sub('{"limit": {{limit}}, "ordering": {{order}}}', { limit: 10, order: ['-id'] })).toMatchObject({ text: '{"limit": 10, "ordering": ["-id"]}' });
    expect(sub('{"q": {{ s }}}', { s: 'a"b' })).toMatchObject({ text: '{"q": "a\\"b"}' });
  });

  it('names every undefined variable with its line and column', () => {
    const result = sub('{\n  "a": "{{one}}",\n  "b": {{two}}, "c": "{{one}}"\n}', {});
    expect(result).toEqual({
      ok: false,
      errors: [
        { name: 'one', line: 2, column: 9, message: '{{one}} is not defined for this connection (line 2, column 9)' },
        { name: 'two', line: 3, column: 8, message: '{{two}} is not defined for this connection (line 3, column 8)' },
        { name: 'one', line: 3, column: 23, message: '{{one}} is not defined for this connection (line 3, column 23)' },
      ],
    });
  });

  it('leaves text that is not a variable alone', () => {
    const doc = '{"a": "{{ not a name }}", "b": "{{", "c": "x}}", "d": "\\"{{q}}\\""}';
    expect(findVariables(doc).map((u) => [u.name, u.place])).toEqual([['q', 'in-string']]);
    expect(sub('{"a": "{{"}', {})).toEqual({ ok: true, text: '{"a": "{{"}', used: [] });
    expect(sub('no variables', {})).toEqual({ ok: true, text: 'no variables', used: [] });
  });

  it('does not take a prototype key for a defined variable', () => {
    expect(sub('"{{toString}}"', {})).toMatchObject({ ok: false });
  });

  it('reports where each use is and how it is placed', () => {
    expect(findVariables('{"a": "{{x}}", "b": "p{{y}}", "c": {{z}}}').map((u) => [u.name, u.place, u.start, u.end])).toEqual([
      ['x', 'whole-string', 6, 13],
      ['y', 'in-string', 22, 27],
      ['z', 'bare', 35, 40],
    ]);
  });
});

describe('variable values', () => {
  it('reads JSON when it parses, else the plain text', () => {
    expect(parseVariableValue('5')).toBe(5);
    expect(parseVariableValue(' true ')).toBe(true);
    expect(parseVariableValue('"5"')).toBe('5');
    expect(parseVariableValue('{"a":1}')).toEqual({ a: 1 });
    expect(parseVariableValue('hello world')).toBe('hello world');
    expect(parseVariableValue('')).toBe('');
    expect(isVariableName('ticket.id-2')).toBe(true);
    expect(isVariableName('2x')).toBe(false);
  });
});
