// The WebSocket server lives in the stream route's own plugin (its hooks cost every POST /jql
// otherwise): an upgrade asked of any other route must still get an HTTP answer, and its socket must
// not stay open afterwards, and `/jql-streams` must still upgrade.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../index.ts';
import { startServer } from '../testing/fixture.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** Sends an upgrade request for `path` on a raw socket: the status line, and whether the server closed it. */
function upgradeOn(path: string): Promise<{ status: string; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ status: text.split('\r\n')[0] ?? '', closedByServer: false });
    }, 5000);
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('end', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: text.split('\r\n')[0] ?? '', closedByServer: true });
    });
    socket.on('error', reject);
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
  });
}

describe('a WebSocket upgrade', () => {
  it('to a route that is not the stream socket is answered over HTTP, and the server closes that socket', async () => {
    for (const [path, status] of [
      ['/healthz', 'HTTP/1.1 200 OK'],
      ['/jql', 'HTTP/1.1 404 Not Found'],
      ['/no/such/route', 'HTTP/1.1 404 Not Found'],
    ] as const) {
      const answer = await upgradeOn(path);
      expect(answer, path).toEqual({ status, closedByServer: true });
    }
  });

  it('to /jql-streams opens the socket, and the server lists it among its stream sockets until it closes', async () => {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/jql-streams`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    expect(server.webSockets().size).toBe(1);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.close();
    await closed;
    await expect.poll(() => server.webSockets().size).toBe(0);
  });
});
