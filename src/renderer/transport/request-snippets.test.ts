// Running the snippets in a real bash against a real server is e2e/snippets.spec.ts (renderer tests have no Node).
import { describe, expect, it } from 'vitest';
import { requestCredential, shellQuote, snippetChoices, toCurl, toFetch } from './request-snippets.ts';
import type { HttpRequestSpec } from './transport.ts';

const request: HttpRequestSpec = {
  connectionId: 'c1',
  url: 'http://127.0.0.1:8787/jql?query_info_level=2',
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Authorization: 'Bearer secret-token' },
  body: `{"__meta__":{"namespace":"tickets.Ticket","intent":"retrieve","filter":{"title__icontains":"it's"}}}`,
  withCredentials: false,
};
const anonymous: HttpRequestSpec = { ...request, headers: { 'Content-Type': 'application/json' } };

describe('toCurl', () => {
  it('sends no Authorization header and no cookies for an anonymous request', () => {
    for (const curl of [toCurl(anonymous, { auth: 'anonymous' }), toCurl(request, { auth: 'anonymous' }), toCurl({ ...request, withCredentials: true }, { auth: 'anonymous' })]) {
      expect(curl).not.toMatch(/Authorization|JQL_TOKEN|cookies\.txt|^#/m);
      expect(curl).not.toContain('secret-token');
    }
  });

  it('with $JQL_TOKEN: starts with how to get a token, and stops with a sentence when it is unset', () => {
    const curl = toCurl(request, { auth: 'env', username: 'agent' });
    expect(curl.split('\n')[0]).toMatch(/^# This request runs as a signed-in user: put a token in JQL_TOKEN first/);
    expect(curl).toContain("--arg u 'agent'");
    expect(curl).toContain("read -rsp 'Password: ' PW");
    expect(curl).toContain(`curl -s 'http://127.0.0.1:8787/jql' -H 'Content-Type: application/json' --data-binary @- | jq -r .__payload__.token`);
    expect(curl).toContain('-H "Authorization: Bearer ${JQL_TOKEN:?set JQL_TOKEN to a token first, see the comment above}"');
    expect(curl).not.toContain('secret-token');
    // The local admin has no password to sign in with: the hint names a placeholder.
    expect(toCurl(request, { auth: 'env', username: 'local admin' })).toContain("--arg u 'USERNAME'");
  });

  it('with my token: holds the token itself, and only then', () => {
    expect(toCurl(request, { auth: 'token' })).toContain(`-H 'Authorization: Bearer secret-token'`);
    expect(toCurl(request)).not.toContain('secret-token');
  });

  it('quotes the body for the shell and uses cookies.txt for session requests', () => {
    expect(toCurl(anonymous, { auth: 'anonymous' })).toContain(`it'\\''s`);
    const session = { ...anonymous, withCredentials: true };
    expect(toCurl(session, { auth: 'env' })).toContain('-b cookies.txt');
    expect(toCurl(session, { auth: 'env' })).toContain('authenticationClass: "session"');
    expect(toCurl(session, { auth: 'env' })).toContain('-c cookies.txt > /dev/null');
  });
});

describe('toFetch', () => {
  it('reads the token from the environment and refuses to run without it', () => {
    const code = toFetch(request, { auth: 'env' });
    expect(code).toContain('const JQL_TOKEN = process.env.JQL_TOKEN;');
    expect(code).toContain('"Authorization": `Bearer ${JQL_TOKEN}`');
    expect(code).not.toContain('secret-token');
    expect(code).toContain('"namespace": "tickets.Ticket"');
    // The snippet is valid JavaScript (an async module body).
    expect(() => new Function('process', `return (async () => {${code}})`)).not.toThrow();
  });

  it('has no Authorization for an anonymous request, and the token only when asked', () => {
    expect(toFetch(request, { auth: 'anonymous' })).not.toMatch(/Authorization|JQL_TOKEN/);
    expect(toFetch(request, { auth: 'token' })).toContain('"Authorization": "Bearer secret-token"');
  });
});

describe('snippetChoices', () => {
  it('offers the token forms only for a signed-in request', () => {
    expect(requestCredential(request)).toBe('bearer');
    expect(snippetChoices(request)).toEqual(['env', 'token', 'anonymous']);
    expect(snippetChoices({ ...anonymous, withCredentials: true })).toEqual(['env', 'anonymous']);
    expect(snippetChoices(anonymous)).toEqual(['anonymous']);
  });

  it("offers no token form where main holds the token (the desktop app): the page has none to write", () => {
    const signedByMain = { ...anonymous, connectionCredentials: true };
    expect(requestCredential(signedByMain)).toBe('bearer');
    expect(snippetChoices(signedByMain)).toEqual(['env', 'anonymous']);
    expect(toCurl(signedByMain, { auth: 'env' })).toContain('JQL_TOKEN');
  });

  it('quotes single quotes', () => {
    expect(shellQuote(`a'b`)).toBe(`'a'\\''b'`);
  });
});
