import { describe, expect, it } from 'vitest';
import { createBrowserTransport } from './browser-transport.ts';
import type { HttpRequestSpec } from './transport.ts';

const base: HttpRequestSpec = { connectionId: 'c', url: 'http://127.0.0.1:8787/jql', method: 'POST', headers: {}, body: '{}', withCredentials: false };

async function credentialsOf(request: HttpRequestSpec): Promise<RequestCredentials | undefined> {
  let seen: RequestCredentials | undefined;
  const transport = createBrowserTransport(async (_url, init) => {
    seen = init.credentials;
    return new Response('{}');
  });
  await transport.send(request);
  return seen;
}

describe('the cookies a browser-mode request sends', () => {
  it("sends the local admin's cookie only with requests that act as it, session cookies cross-origin, else none", async () => {
    expect(await credentialsOf({ ...base, connectionCredentials: true })).toBe('same-origin');
    expect(await credentialsOf({ ...base, withCredentials: true })).toBe('include');
    // "anyone", another identity of a diff, a remote connection on the same origin: no cookie at all.
    expect(await credentialsOf(base)).toBe('omit');
  });
});
