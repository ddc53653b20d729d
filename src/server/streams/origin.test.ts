// Issue 21 point 6 (docs/protocol.md "Streams"): `/jql-streams` refuses, with 403 before the upgrade, an Origin that
// is neither the server's own nor a `--cors` one; a client that sends no Origin is accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startStreamServer, type StreamServer } from '../testing/stream-client.ts';

const CONSOLE_ORIGIN = 'http://console.example:5173';
let s: StreamServer;
beforeAll(async () => {
  s = await startStreamServer({ cors: [CONSOLE_ORIGIN] });
});
afterAll(() => s.close());

/** 101 when the socket opened, else the HTTP status of the refusal (and its body). */
function open(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(s.wsUrl, { headers });
    socket.on('open', () => {
      socket.close();
      resolve({ status: 101, body: '' });
    });
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body });
        socket.terminate();
      });
    });
    socket.on('error', (error) => (error.message.includes('Unexpected server response') ? undefined : reject(error)));
  });
}

describe('the Origin of a stream socket', () => {
  it('refuses a page of another site, or of another port of this machine, with 403 before the upgrade', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1:1', 'http://localhost', 'null']) {
      const answer = await open({ origin });
      expect(answer.status, origin).toBe(403);
      expect(JSON.parse(answer.body).__errors__[0].code).toBe('forbidden');
    }
  });

  it("accepts the server's own origin, a --cors origin, and a client that sends no Origin", async () => {
    const own = new URL(s.server.url).origin;
    expect((await open({ origin: own })).status).toBe(101);
    expect((await open({ origin: CONSOLE_ORIGIN })).status).toBe(101);
    expect((await open({})).status).toBe(101);
  });
});
