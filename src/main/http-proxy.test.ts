/**
 * `http:request` as main performs it, over real HTTP against local servers (Node's client stands in
 * for Electron's, which cannot run here): the connection's origin only, main's credential, no
 * redirect followed, the answer limit.
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ANSWER_LIMIT, MIN_ANSWER_LIMIT, type ProxyRequest } from '../shared/bridge.ts';
import { performProxyRequest, ProxyRequestError, validateProxyRequest } from './http-proxy.ts';
import type { OpenRequestOptions, OutgoingRequest } from './net/outgoing.ts';
import { nodeOutgoing } from './testing/node-outgoing.ts';
import { testConnections } from './testing/test-connections.ts';

const valid = { connectionId: 'conn-1', url: 'https://jql.example/api/jql?x=1', method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}', credentials: 'connection' };

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
      { ...valid, credentials: 'include' },
      { ...valid, credentials: undefined },
    ];
    for (const input of bad) expect(() => validateProxyRequest(input), JSON.stringify(input)).toThrow(ProxyRequestError);
  });
});

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A local server that records each request and answers with `handle`. */
async function server(handle: (res: ServerResponse, seen: Seen) => void = (res) => res.end('{"ok":true}')) {
  const seen: Seen[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(entry);
      handle(res, entry);
    });
  });
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen };
}

function request(url: string, extra: Partial<ProxyRequest> = {}): ProxyRequest {
  return validateProxyRequest({ ...valid, url, ...extra });
}

async function setup(baseUrl: string, extra: { answerLimit?: number; token?: string } = {}) {
  const c = testConnections();
  await c.add({ id: 'conn-1', baseUrl, authClass: 'jwt', ...(extra.answerLimit ? { answerLimit: extra.answerLimit } : {}) }, extra.token);
  const opened: OpenRequestOptions[] = [];
  const deps = { gateway: c.gateway, open: (o: OpenRequestOptions) => nodeOutgoing(o, opened) };
  return { ...c, deps, opened };
}

describe('performProxyRequest', () => {
  it("returns status, headers without cookies, bytes and time, with main's credential and the connection's jar", async () => {
    const api = await server((res) => res.writeHead(201, 'Created', { 'content-type': 'application/json', 'set-cookie': 'jql_session=secret' }).end('{"ok":true}'));
    const { deps, opened } = await setup(api.url, { token: 'main-held-token' });
    let t = 100;
    const res = await performProxyRequest(request(`${api.url}/jql?x=1`, { headers: { 'Content-Type': 'application/json', Authorization: 'Bearer page-forged', Cookie: 'a=b' } }), { ...deps, now: () => (t += 5) });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Created');
    expect(res.headers).toMatchObject({ 'content-type': 'application/json' });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(new TextDecoder().decode(res.body)).toBe('{"ok":true}');
    expect(res.timeMs).toBe(5);
    // The page's Authorization and Cookie are dropped: main writes the credential.
    expect(api.seen[0]).toMatchObject({ method: 'POST', url: '/jql?x=1', body: '{}' });
    expect(api.seen[0]!.headers.authorization).toBe('Bearer main-held-token');
    expect(api.seen[0]!.headers.cookie).toBeUndefined();
    expect(opened[0]).toMatchObject({ method: 'POST', jar: 'conn-1' });
  });

  it("adds nothing and uses no jar with credentials 'omit'; a token the page holds goes to the connection's origin only", async () => {
    const api = await server();
    const { deps, opened } = await setup(api.url, { token: 'main-held-token' });
    await performProxyRequest(request(`${api.url}/healthz`, { method: 'GET', credentials: 'omit' }), deps);
    await performProxyRequest(request(`${api.url}/jql`, { credentials: 'omit', headers: { Authorization: 'Bearer diff-identity' } }), deps);
    expect(api.seen.map((s) => s.headers.authorization)).toEqual([undefined, 'Bearer diff-identity']);
    expect(opened.map((o) => o.jar)).toEqual([null, null]);
  });

  it('sends no body with GET', async () => {
    const api = await server();
    const { deps } = await setup(api.url);
    await performProxyRequest(request(`${api.url}/healthz`, { method: 'GET' }), deps);
    expect(api.seen[0]).toMatchObject({ method: 'GET', body: '' });
  });

  it('words network failures and timeouts for the user', async () => {
    const api = await server();
    const { deps, registry } = await setup(api.url);
    await registry.register({ id: 'conn-2', baseUrl: 'http://127.0.0.1:1', authClass: 'jwt' });
    await expect(performProxyRequest(request('http://127.0.0.1:1/jql', { connectionId: 'conn-2' }), deps)).rejects.toThrow(/^Could not reach http:\/\/127\.0\.0\.1:1\/jql \(connect ECONNREFUSED/);
    const hang = await server(() => {});
    await registry.register({ id: 'conn-3', baseUrl: hang.url, authClass: 'jwt' });
    await expect(performProxyRequest(request(`${hang.url}/jql`, { connectionId: 'conn-3', timeoutMs: 20 }), deps)).rejects.toThrow(/No answer from .* within 0 s/);
  });
});

describe('main reaches a connection\'s origin only (issue 21.3, 21.4)', () => {
  it('refuses a page request to another origin: nothing is sent there, no credential leaves', async () => {
    const api = await server();
    const collector = await server();
    const { deps } = await setup(api.url, { token: 'main-held-token' });
    for (const credentials of ['connection', 'omit'] as const) {
      await expect(performProxyRequest(request(`${collector.url}/steal`, { credentials }), deps)).rejects.toThrow(/is not the origin of this connection/);
    }
    await expect(performProxyRequest(request(`${api.url}/jql`, { connectionId: 'no-such' }), deps)).rejects.toThrow(/knows no connection "no-such"/);
    expect(collector.seen).toEqual([]);
    expect(api.seen).toEqual([]);
  });

  it('refuses a 307 to loopback: the redirect is not followed, the body and credential go nowhere', async () => {
    const inspector = await server();
    const hostile = await server((res) => res.writeHead(307, { location: `${inspector.url}/json/new?evil` }).end());
    const { deps } = await setup(hostile.url, { token: 'main-held-token' });
    await expect(performProxyRequest(request(`${hostile.url}/jql`, { body: '{"password":"x"}' }), deps)).rejects.toThrow(
      `Refused: ${hostile.url}/jql answered 307, a redirect to ${inspector.url}/json/new?evil; the console follows no redirects, so nothing was sent there.`,
    );
    expect(hostile.seen).toHaveLength(1);
    expect(inspector.seen).toEqual([]);
  });

  it('refuses a redirect that the network stack stopped (Electron reports it as an event)', async () => {
    const { deps } = await setup('https://jql.example');
    const events = new EventEmitter();
    const outgoing = {
      setHeader() {},
      write: (_c: Uint8Array, cb: () => void) => cb(),
      end: () => events.emit('redirect', 302, 'http://169.254.169.254/latest/meta-data'),
      abort() {},
      uploaded: () => null,
      on: (event: string, listener: (...args: unknown[]) => void) => events.on(event, listener),
    } as unknown as OutgoingRequest;
    await expect(performProxyRequest(request('https://jql.example/jql'), { ...deps, open: () => outgoing })).rejects.toThrow(/answered 302, a redirect to http:\/\/169\.254\.169\.254\/latest\/meta-data; the console follows no redirects/);
  });
});

describe('answer limit (issue 21.5)', () => {
  /** Streams `total` bytes in 64 KiB pieces made as it goes (never held whole), honouring backpressure. */
  function streamBytes(total: number, sent: { bytes: number; closed: boolean }) {
    return (res: ServerResponse) => {
      const piece = Buffer.alloc(64 * 1024, 0x61);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('close', () => (sent.closed = true));
      const pump = () => {
        while (sent.bytes < total && !res.destroyed) {
          sent.bytes += piece.byteLength;
          if (!res.write(piece)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
    };
  }

  it('cuts a 200 MiB answer at the 64 MiB default, with a message, and stops reading', async () => {
    const sent = { bytes: 0, closed: false };
    const huge = await server(streamBytes(200 * 1024 * 1024, sent));
    const { deps } = await setup(huge.url);
    await expect(performProxyRequest(request(`${huge.url}/jql`), deps)).rejects.toThrow(
      `The answer from ${huge.url} is larger than this connection's answer limit (64 MiB), so the console stopped reading it. Ask for less (a limit, fewer fields) or raise the connection's answer limit.`,
    );
    expect(DEFAULT_ANSWER_LIMIT).toBe(64 * 1024 * 1024);
    // The server was cut off long before it had sent everything.
    await expect.poll(() => sent.closed).toBe(true);
    expect(sent.bytes).toBeLessThan(100 * 1024 * 1024);
  });

  it("follows the connection's own limit, and refuses a declared length above it before reading", async () => {
    const sent = { bytes: 0, closed: false };
    const big = await server(streamBytes(3 * MIN_ANSWER_LIMIT, sent));
    const { deps } = await setup(big.url, { answerLimit: MIN_ANSWER_LIMIT });
    await expect(performProxyRequest(request(`${big.url}/jql`), deps)).rejects.toThrow(/answer limit \(1 MiB\)/);
    const declared = await server((res) => res.writeHead(200, { 'content-length': String(2 * MIN_ANSWER_LIMIT) }).write('x'));
    const { deps: deps2 } = await setup(declared.url, { answerLimit: MIN_ANSWER_LIMIT });
    await expect(performProxyRequest(request(`${declared.url}/jql`), deps2)).rejects.toThrow(/answer limit \(1 MiB\)/);
  });

  it('passes an answer under the limit whole', async () => {
    const sent = { bytes: 0, closed: false };
    const fine = await server(streamBytes(2 * 1024 * 1024, sent));
    const { deps } = await setup(fine.url);
    const res = await performProxyRequest(request(`${fine.url}/jql`), deps);
    expect(res.body.byteLength).toBe(2 * 1024 * 1024);
  });
});
