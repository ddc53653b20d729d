import { describe, expect, it } from 'vitest';
import { validateDraft } from './connection-draft.ts';

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
