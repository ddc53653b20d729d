// DNS rebinding (docs/protocol.md "Endpoints"): a loopback server answers loopback Host names (or its --host) only.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { start, type RunningServer } from '../index.ts';
import { tempDir, testApp } from '../testing/fixture.ts';
import { rawRequest } from '../testing/raw-http.ts';
import { answersHost } from './host-guard.ts';

let server: RunningServer;
let dataDir: string;
let port: number;
beforeAll(async () => {
  dataDir = tempDir();
  server = await start({ dataDir, port: 0, env: {} });
  port = server.port;
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const jql = JSON.stringify({ __meta__: { namespace: 'tickets.Ticket', intent: 'count' } });
const get = (path: string, host: string) => rawRequest(`http://127.0.0.1:${port}${path}`, { headers: { host } });

function upgrade(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/jql-streams`, { headers: { host } });
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('error', (error) => (error.message.includes('Unexpected server response') ? undefined : reject(error)));
  });
}

describe('a server listening on a loopback address', () => {
  it('answers a rebinding Host with 421 misdirected_request on every route, the console page and the socket included', async () => {
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`, `[::1].evil.example:${port}`, `127.000.000.001:${port}`]) {
      for (const path of ['/', '/console-config.json', '/healthz', '/jql-streams', '/no/such/route', '/?key=x']) {
        const answer = await get(path, host);
        expect(answer.status, `${host} ${path}`).toBe(421);
        expect(JSON.parse(answer.body).__errors__[0].code).toBe('misdirected_request');
      }
      const post = await rawRequest(`http://127.0.0.1:${port}/jql`, { method: 'POST', headers: { host, 'content-type': 'application/json' }, body: jql });
      expect(post.status).toBe(421);
      expect(await upgrade(host)).toBe(421);
    }
  });

  it('answers loopback names, with or without the port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, '127.0.0.1', `127.8.9.10:${port}`]) {
      expect((await get('/healthz', host)).status, host).toBe(200);
    }
    expect(await upgrade(`localhost:${port}`)).toBe(101);
  });

  it('checks every request whatever Host the one before it sent (the guard remembers the last accepted one)', async () => {
    for (const host of [`127.0.0.1:${port}`, `evil.example:${port}`, `127.0.0.1:${port}`, `127.0.0.1.evil.example:${port}`, `localhost:${port}`, `evil.example:${port}`]) {
      expect((await get('/healthz', host)).status, host).toBe(host.includes('evil') ? 421 : 200);
    }
  });
});

describe('the Host a server answers', () => {
  it('includes the --host it was given when that name is bound to loopback', () => {
    const aliased = { host: 'devbox.local', loopback: true };
    expect(answersHost(aliased, 'devbox.local:8787')).toBe(true);
    expect(answersHost(aliased, 'localhost:8787')).toBe(true);
    expect(answersHost(aliased, 'evil.example:8787')).toBe(false);
    expect(answersHost(aliased, undefined)).toBe(false);
  });

  it('is any Host for a server listening on every interface (it cannot know the names it is reached by)', async () => {
    const everywhere = await testApp({ host: '0.0.0.0' });
    try {
      const answer = await everywhere.app.inject({ method: 'POST', url: '/jql', payload: jql, headers: { 'content-type': 'application/json', host: 'devbox.local:8787' } });
      expect(answer.statusCode).toBe(200);
    } finally {
      await everywhere.close();
    }
  });
});
