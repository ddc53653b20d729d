import { describe, expect, it } from 'vitest';
import {
  buildRunRequest,
  credentialParts,
  callJql,
  fetchDescribe,
  fetchHealth,
  JqlCallError,
  jqlEndpoint,
  login,
  verifyAuthentication,
  type ServerTarget,
} from './jql-client.ts';
import type { HttpRequestSpec, HttpResult, Transport } from './transport.ts';

const target: ServerTarget = { connectionId: 'c', baseUrl: 'http://h:1/api/', authClass: 'jwt', token: 't0k' };

function fakeTransport(answer: (req: HttpRequestSpec) => { status: number; body: unknown }): Transport & { sent: HttpRequestSpec[] } {
  const sent: HttpRequestSpec[] = [];
  return {
    kind: 'browser',
    sent,
    async send(req): Promise<HttpResult> {
      sent.push(req);
      const { status, body } = answer(req);
      const bytes = new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body));
      return { status, statusText: '', headers: {}, body: bytes.buffer as ArrayBuffer, timeMs: 1 };
    },
  };
}

const envelope = (payload: unknown, errors: unknown = null) => ({ __payload__: payload, __errors__: errors, __intent__: 'x', __extras__: null, __system__: null, __message__: null });

describe('requests', () => {
  it('builds the endpoint with diagnostics and envelope flags', () => {
    expect(jqlEndpoint('http://h/api/')).toBe('http://h/api/jql');
    expect(jqlEndpoint('http://h', { queryInfoLevel: 2, flatEnvelope: true })).toBe('http://h/jql?query_info_level=2&envelope=flat');
  });

  it('sends the bearer token for jwt and cookies for session', () => {
    const jwt = buildRunRequest(target, '{}', { queryInfoLevel: 0 });
    expect(jwt.headers.Authorization).toBe('Bearer t0k');
    expect(jwt.withCredentials).toBe(false);
    const session = buildRunRequest({ ...target, authClass: 'session' }, '{}', { queryInfoLevel: 1 });
    expect(session.headers.Authorization).toBeUndefined();
    expect(session.withCredentials).toBe(true);
    expect(session.url).toBe('http://h:1/api/jql?query_info_level=1');
  });
});

describe('credentialParts', () => {
  it('gives a credential only to a URL on the connection origin (issue 21.2)', () => {
    expect(credentialParts(target, 'http://h:1/jql/files/f1').headers).toEqual({ Authorization: 'Bearer t0k' });
    for (const url of ['http://collector.example/steal', 'https://h:1/x', 'http://h:2/x']) {
      expect(credentialParts(target, url), url).toEqual({ headers: {}, withCredentials: false });
      expect(credentialParts({ ...target, token: null, heldCredential: true }, url), url).toEqual({ headers: {}, withCredentials: false });
    }
    // The desktop app: main adds the credential; the page only asks for it.
    expect(credentialParts({ ...target, token: null, heldCredential: true }, 'http://h:1/jql')).toEqual({ headers: {}, withCredentials: false, connectionCredentials: true });
    // A browser-mode local copy as one of its users: the token, and the console's cookie that opens the way.
    expect(credentialParts({ ...target, gateCookie: true }, 'http://h:1/jql')).toEqual({ headers: { Authorization: 'Bearer t0k' }, withCredentials: false, connectionCredentials: true });
    expect(credentialParts({ ...target, gateCookie: true }, 'http://collector.example/steal')).toEqual({ headers: {}, withCredentials: false });
  });
});

describe('callJql', () => {
  it('returns the payload or throws the first error', async () => {
    const ok = fakeTransport(() => ({ status: 200, body: envelope([1]) }));
    await expect(callJql(ok, target, {})).resolves.toEqual([1]);
    const bad = fakeTransport(() => ({ status: 403, body: envelope(null, [{ code: 'forbidden', message: 'No.' }]) }));
    await expect(callJql(bad, target, {})).rejects.toMatchObject({ code: 'forbidden', status: 403, message: 'No.' });
    const html = fakeTransport(() => ({ status: 502, body: '<html>' }));
    await expect(callJql(html, target, {})).rejects.toBeInstanceOf(JqlCallError);
  });
});

describe('login', () => {
  it('calls system.User login without the old token and returns the new one', async () => {
    const t = fakeTransport(() => ({ status: 200, body: envelope({ token: 'new', expires_at: '2030-01-01T00:00:00Z', user: { id: 1, username: 'admin', roles: ['admin'] } }) }));
    const result = await login(t, target, 'admin', 'pw');
    expect(result).toEqual({ token: 'new', expiresAt: '2030-01-01T00:00:00Z', user: { id: 1, username: 'admin', roles: ['admin'] } });
    const sent = t.sent[0]!;
    expect(sent.headers.Authorization).toBeUndefined();
    expect(JSON.parse(sent.body!)).toMatchObject({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username: 'admin', password: 'pw' });
  });

  it('reports a wrong password as the server words it', async () => {
    const t = fakeTransport(() => ({ status: 401, body: envelope(null, [{ code: 'unauthenticated', message: 'Wrong username or password.' }]) }));
    await expect(login(t, target, 'a', 'b')).rejects.toThrow('Wrong username or password.');
  });
});

describe('verifyAuthentication', () => {
  it('answers null for a bad token', async () => {
    const t = fakeTransport(() => ({ status: 401, body: envelope(null, [{ code: 'unauthenticated', message: 'expired' }]) }));
    await expect(verifyAuthentication(t, target)).resolves.toBeNull();
    const ok = fakeTransport(() => ({ status: 200, body: envelope({ id: 3, username: 'viewer' }) }));
    await expect(verifyAuthentication(ok, target)).resolves.toEqual({ id: 3, username: 'viewer' });
  });
});

describe('fetchHealth and fetchDescribe', () => {
  it('reads healthz', async () => {
    const t = fakeTransport(() => ({ status: 200, body: { status: 'ok', version: '0.1.0' } }));
    await expect(fetchHealth(t, target)).resolves.toEqual({ status: 'ok', version: '0.1.0' });
    expect(t.sent[0]?.url).toBe('http://h:1/api/healthz');
    const notJql = fakeTransport(() => ({ status: 404, body: 'nope' }));
    await expect(fetchHealth(notJql, target)).rejects.toThrow(/does not look like a JQL server/);
  });

  it('falls back to no schema when describe is missing', async () => {
    const t = fakeTransport(() => ({ status: 404, body: envelope(null, [{ code: 'unknown_namespace', message: 'No system.Schema' }]) }));
    await expect(fetchDescribe(t, target)).resolves.toEqual({ describe: null, reason: 'No system.Schema' });
    const ok = fakeTransport(() => ({ status: 200, body: envelope({ version: '1', apps: {} }) }));
    await expect(fetchDescribe(ok, target)).resolves.toMatchObject({ describe: { version: '1' } });
  });
});
