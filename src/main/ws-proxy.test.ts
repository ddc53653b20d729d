import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import type { WsClosedEvent, WsMessageEvent } from '../shared/bridge.ts';
import { ProxyRequestError } from './http-proxy.ts';
import { testConnections } from './testing/test-connections.ts';
import { closeCode, closeReason, httpUrlOf, validateWsOpen, WsProxy } from './ws-proxy.ts';

const servers: WebSocketServer[] = [];

/** A real WebSocket server that echoes, remembers the Cookie header and closes on "bye". */
async function echoServer() {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(server);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const cookies: Array<string | undefined> = [];
  const authorizations: Array<string | undefined> = [];
  server.on('connection', (socket, req) => {
    cookies.push(req.headers.cookie);
    authorizations.push(req.headers.authorization);
    socket.on('message', (data) => {
      if (String(data) === 'bye') socket.close(4008, 'fell behind');
      else socket.send(`echo:${String(data)}`);
    });
  });
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/jql-streams`, cookies, authorizations };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A proxy whose connection c1 is the server at `url` (a loopback origin the user allowed), c2 a closed port. */
async function proxy(url: string, options: { cookie?: string; authClass?: 'jwt' | 'session'; token?: string; backlog?: { pauseChars: number; resumeChars: number } } = {}) {
  const c = testConnections();
  await c.add({ id: 'c1', baseUrl: url.replace(/^ws/, 'http'), authClass: options.authClass ?? 'session' }, options.token);
  await c.add({ id: 'c2', baseUrl: 'http://127.0.0.1:1', authClass: 'session' });
  const messages: WsMessageEvent[] = [];
  const closed: WsClosedEvent[] = [];
  const jars: string[] = [];
  let n = 0;
  const p = new WsProxy({
    gateway: c.gateway,
    create: (socketUrl, headers, o) => new WebSocket(socketUrl, { headers, lookup: o.lookup, maxPayload: o.maxPayload }),
    cookieHeader: async (jar) => {
      jars.push(jar);
      return options.cookie ?? null;
    },
    ...(options.backlog ? { backlog: options.backlog } : {}),
    onMessage: (m) => messages.push(m),
    onClosed: (c) => closed.push(c),
    newId: () => `s${++n}`,
    maxSockets: 2,
  });
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  };
  return { p, messages, closed, until, jars };
}

describe('validateWsOpen', () => {
  it('takes ws and wss URLs of a connection only', () => {
    expect(validateWsOpen({ connectionId: 'c1', url: 'wss://h/jql-streams' })).toEqual({ connectionId: 'c1', url: 'wss://h/jql-streams' });
    // A credential from the page is not taken: main adds the connection's own.
    expect(validateWsOpen({ connectionId: 'c1', url: 'ws://h/', authorization: 'Bearer abc.def' })).toEqual({ connectionId: 'c1', url: 'ws://h/' });
    const refused = [
      null,
      { connectionId: 'c1', url: 'http://h/' },
      { connectionId: 'c1', url: 'ws://u:p@h/' },
      { connectionId: '../x', url: 'ws://h/' },
    ];
    for (const bad of refused) {
      expect(() => validateWsOpen(bad)).toThrow(ProxyRequestError);
    }
  });

  it('keeps close codes and reasons a client may send', () => {
    expect([1000, 4000, 1006, 2000, 'x'].map(closeCode)).toEqual([1000, 4000, 1000, 1000, 1000]);
    expect(closeReason('ok\r\n'.padEnd(200, 'x')).length).toBe(123);
    expect(httpUrlOf('wss://h:1/jql-streams?x=1')).toBe('https://h:1/jql-streams?x=1');
  });
});

describe('WsProxy', () => {
  it('opens with the connection cookie, relays messages both ways and reports the close', async () => {
    const server = await echoServer();
    const { p, messages, closed, until, jars } = await proxy(server.url, { cookie: 'jql_session=abc' });
    const { socketId } = await p.open({ connectionId: 'c1', url: server.url });
    expect(server.cookies).toEqual(['jql_session=abc']);
    expect(server.authorizations).toEqual([undefined]);
    expect(jars).toEqual(['c1']);
    p.send(socketId, 'hello');
    await until(() => messages.length > 0);
    expect(messages).toEqual([{ socketId, data: 'echo:hello' }]);
    p.send(socketId, 'bye');
    await until(() => closed.length > 0);
    expect(closed).toEqual([{ socketId, code: 4008, reason: 'fell behind' }]);
    expect(p.size).toBe(0);
    expect(() => p.send(socketId, 'x')).toThrow(/closed/);
  });

  it("sends a token connection's bearer token, which main holds, as a header", async () => {
    const server = await echoServer();
    const { p } = await proxy(server.url, { authClass: 'jwt', token: 'main-held-token' });
    await p.open({ connectionId: 'c1', url: server.url });
    expect(server.authorizations).toEqual(['Bearer main-held-token']);
    expect(server.cookies).toEqual([undefined]);
  });

  it("opens no socket outside the connection's origin", async () => {
    const server = await echoServer();
    const other = await echoServer();
    const { p } = await proxy(server.url, { authClass: 'jwt', token: 'main-held-token' });
    await expect(p.open({ connectionId: 'c1', url: other.url })).rejects.toThrow(/is not the origin of this connection/);
    expect(other.authorizations).toEqual([]);
  });

  it("bounds the socket's backlog: stops reading while the page lags, reads on after its acknowledgements", async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    servers.push(server);
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/jql-streams`;
    const message = 'x'.repeat(256 * 1024);
    const total = 120; // 30 MiB: more than the kernel buffers between the two ends hold
    let serverSide: WebSocket | null = null;
    server.on('connection', (socket) => {
      serverSide = socket;
      for (let i = 0; i < total; i++) socket.send(message);
    });
    const { p, messages } = await proxy(url, { backlog: { pauseChars: 1024 * 1024, resumeChars: 256 * 1024 } });
    const { socketId } = await p.open({ connectionId: 'c1', url });
    // The server cannot send all of it: main stopped reading, so TCP holds the rest at the server.
    await expect.poll(() => serverSide?.bufferedAmount ?? 0, { timeout: 5000 }).toBeGreaterThan(0);
    expect(messages.length).toBeLessThan(total);
    // The page takes what it got, and more comes, until all of it has.
    let acked = 0;
    for (let round = 0; round < 500 && messages.length < total; round++) {
      const seen = messages.length;
      p.ack(socketId, (seen - acked) * message.length);
      acked = seen;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(messages).toHaveLength(total);
  });

  it('rejects when the socket cannot open, and caps the number of sockets', async () => {
    const server = await echoServer();
    const { p } = await proxy(server.url);
    await expect(p.open({ connectionId: 'c2', url: 'ws://127.0.0.1:1/jql-streams' })).rejects.toThrow(/Could not open/);
    expect(p.size).toBe(0);
    await p.open({ connectionId: 'c1', url: server.url });
    await p.open({ connectionId: 'c1', url: server.url });
    await expect(p.open({ connectionId: 'c1', url: server.url })).rejects.toThrow(/Too many/);
  });

  it('closes on request, and drops every socket silently when the page goes away', async () => {
    const server = await echoServer();
    const { p, closed, until } = await proxy(server.url);
    const a = await p.open({ connectionId: 'c1', url: server.url });
    p.close(a.socketId, 1000, 'closed by the console');
    await until(() => closed.length > 0);
    expect(closed[0]).toMatchObject({ socketId: a.socketId, code: 1000 });
    await p.open({ connectionId: 'c1', url: server.url });
    p.closeAll();
    expect(p.size).toBe(0);
    await new Promise((r) => setTimeout(r, 30));
    expect(closed).toHaveLength(1);
  });
});
