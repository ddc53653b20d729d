import { describe, expect, it } from 'vitest';
import { shellQuote, toCurl, toFetch } from './request-snippets.ts';
import type { HttpRequestSpec } from './transport.ts';

const request: HttpRequestSpec = {
  connectionId: 'c1',
  url: 'http://127.0.0.1:8787/jql?query_info_level=2',
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Authorization: 'Bearer secret-token' },
  body: `{"__meta__":{"namespace":"tickets.Ticket","intent":"retrieve","filter":{"title__icontains":"it's"}}}`,
  withCredentials: false,
};

describe('toCurl', () => {
  it('writes a runnable command without the token', () => {
    const curl = toCurl(request);
    expect(curl).toContain(`curl -X POST 'http://127.0.0.1:8787/jql?query_info_level=2'`);
    expect(curl).toContain(`-H "Authorization: Bearer $JQL_TOKEN"`);
    expect(curl).not.toContain('secret-token');
    expect(curl).toContain(`it'\\''s`);
  });

  it('keeps cookies for session connections', () => {
    expect(toCurl({ ...request, withCredentials: true })).toContain('-b cookies.txt');
  });
});

describe('toFetch', () => {
  it('writes fetch code that reads the token from the environment', () => {
    const code = toFetch(request);
    expect(code).toContain('const JQL_TOKEN = process.env.JQL_TOKEN;');
    expect(code).toContain('"Authorization": `Bearer ${JQL_TOKEN}`');
    expect(code).not.toContain('secret-token');
    expect(code).toContain('"namespace": "tickets.Ticket"');
    // The snippet is valid JavaScript (an async module body).
    expect(() => new Function(`return (async () => {${code.replace('process.env.JQL_TOKEN', '""')}})`)).not.toThrow();
  });

  it('leaves out the token prelude when there is none', () => {
    expect(toFetch({ ...request, headers: {} })).not.toContain('JQL_TOKEN');
  });
});

describe('shellQuote', () => {
  it('quotes single quotes', () => {
    expect(shellQuote(`a'b`)).toBe(`'a'\\''b'`);
  });
});
