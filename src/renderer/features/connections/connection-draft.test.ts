import { describe, expect, it } from 'vitest';
import { parseAnswerLimit, validateDraft } from './connection-draft.ts';

describe('validateDraft', () => {
  it('normalizes the URL and names the connection after its host when unnamed', () => {
    expect(validateDraft({ name: '', baseUrl: '127.0.0.1:8787', authClass: 'jwt' }).draft.baseUrl).toBe('http://127.0.0.1:8787');
    expect(validateDraft({ name: ' ', baseUrl: 'jql.example.com/api/', authClass: 'jwt' })).toEqual({
      draft: { name: 'jql.example.com', baseUrl: 'http://jql.example.com/api', authClass: 'jwt' },
      errors: {},
    });
    expect(validateDraft({ name: 'X', baseUrl: 'https://h/api/jql', authClass: 'session' }).draft.baseUrl).toBe('https://h/api');
  });

  it('explains a bad URL', () => {
    expect(validateDraft({ name: 'x', baseUrl: '', authClass: 'jwt' }).errors.baseUrl).toMatch(/Enter the server URL/);
    expect(validateDraft({ name: 'x', baseUrl: 'ftp://h', authClass: 'jwt' }).errors.baseUrl).toMatch(/http/);
    expect(validateDraft({ name: 'x', baseUrl: 'http://h/?a=1', authClass: 'jwt' }).errors.baseUrl).toMatch(/query string/);
    expect(validateDraft({ name: 'x', baseUrl: 'http://', authClass: 'jwt' }).errors.baseUrl).toBeDefined();
  });
});

describe('parseAnswerLimit', () => {
  it('reads MiB into bytes, empty as the default, and refuses what main would refuse', () => {
    expect(parseAnswerLimit('')).toEqual({});
    expect(parseAnswerLimit('256')).toEqual({ answerLimit: 256 * 1024 * 1024 });
    for (const bad of ['0', '1.5', '2048', 'lots']) expect(parseAnswerLimit(bad).error, bad).toMatch(/^A whole number of MiB from 1 to 1024/);
  });
});
