import { describe, expect, it, vi } from 'vitest';
import { performProxyRequest, ProxyRequestError, validateProxyRequest } from './http-proxy.ts';

const valid = { connectionId: 'conn-1', url: 'https://jql.example/api/jql?x=1', method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' };

describe('validateProxyRequest', () => {
  it('accepts a well-formed request and caps the timeout', () => {
    expect(validateProxyRequest({ ...valid, timeoutMs: 99_999_999 })).toEqual({ ...valid, timeoutMs: 600_000 });
    expect(validateProxyRequest({ ...valid, headers: undefined }).headers).toEqual({});
  });

  it('refuses what the page should not be able to ask main for', () => {
    const bad: unknown[] = [
      null,
      'x',
      { ...valid, url: 'file:///etc/passwd' },
      { ...valid, url: 'app://console/index.html' },
      { ...valid, url: 'https://user:pw@host/' },
      { ...valid, url: 42 },
      { ...valid, method: 'TRACE' },
      { ...valid, connectionId: '../x' },
      { ...valid, headers: { 'X-Bad\r\nInjected': 'x' } },
      { ...valid, headers: { 'X-A': 'a\r\nSet-Cookie: x' } },
      { ...valid, headers: { 'X-A': 1 } },
      { ...valid, body: { not: 'a string' } },
    ];
    for (const input of bad) expect(() => validateProxyRequest(input), JSON.stringify(input)).toThrow(ProxyRequestError);
  });
});

describe('performProxyRequest', () => {
  it('returns status, headers without cookies, bytes and time', async () => {
    const fetchFn = vi.fn(async () => new Response('{"ok":true}', { status: 201, statusText: 'Created', headers: { 'content-type': 'application/json', 'set-cookie': 'jql_session=secret' } }));
    let t = 100;
    const res = await performProxyRequest(validateProxyRequest(valid), fetchFn, () => (t += 5));
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Created');
    expect(res.headers).toEqual({ 'content-type': 'application/json' });
    expect(new TextDecoder().decode(res.body)).toBe('{"ok":true}');
    expect(res.timeMs).toBe(5);
    expect(fetchFn).toHaveBeenCalledWith('https://jql.example/api/jql?x=1', expect.objectContaining({ method: 'POST', body: '{}', credentials: 'include' }));
  });

  it('sends no body with GET', async () => {
    const fetchFn = vi.fn(async (_url: string, _init: RequestInit) => new Response('{}'));
    await performProxyRequest({ ...validateProxyRequest(valid), method: 'GET' }, fetchFn);
    expect(fetchFn.mock.calls[0]![1]).toMatchObject({ body: undefined });
  });

  it('words network failures and timeouts for the user', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    await expect(performProxyRequest(validateProxyRequest(valid), async () => Promise.reject(refused))).rejects.toThrow(
      'Could not reach https://jql.example/api/jql?x=1 (connect ECONNREFUSED 127.0.0.1:1).',
    );
    const hang = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(new Error('aborted'))));
    await expect(performProxyRequest({ ...validateProxyRequest(valid), timeoutMs: 20 }, hang)).rejects.toThrow(/No answer from .* within 0 s/);
  });
});
