// Issue 30.4 (docs/protocol.md "Limits"): 500 sockets that trickle request bodies do not stop a normal
// client from being answered within a second, and are answered 408 and closed by the request timeout;
// connections past the cap are closed as they come. The server runs in a process of its own, as
// `serve`, so each side holds its 500 descriptors (see `ulimit -n`).
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serve } from '../hardening/server-process.ts';
import { tempDir } from '../testing/fixture.ts';

const DEMO = fileURLToPath(new URL('../demo/workspace.json', import.meta.url));
const COUNT = { __meta__: { namespace: 'tickets.Ticket', intent: 'count' } };

interface Trickler {
  socket: Socket;
  answer: string;
  closedAt: number | null;
}

/** Opens a socket that sends a POST's headers and then one byte of its body at a time. */
function trickler(url: URL): Promise<Trickler> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const entry: Trickler = { socket, answer: '', closedAt: null };
    socket.on('data', (chunk) => (entry.answer += String(chunk)));
    socket.on('close', () => (entry.closedAt = performance.now()));
    socket.once('error', () => undefined);
    socket.once('connect', () => {
      socket.write(`POST /jql HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`);
      resolve(entry);
    });
    socket.once('error', reject);
  });
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

async function waitFor(condition: () => boolean, ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (!condition() && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('slow clients', () => {
  it('500 sockets trickling bodies: a normal client is answered within a second, and the trickling ones get 408 and are closed by the request timeout', async () => {
    const server = await serve(DEMO, tempDir(), 20_000, ['--request-timeout', '3']);
    const tricklers: Trickler[] = [];
    const drip = setInterval(() => {
      for (const t of tricklers) if (t.closedAt === null) t.socket.write(' ');
    }, 250);
    try {
      const url = new URL(server.url);
      const opened = performance.now();
      for (let i = 0; i < 500; i++) tricklers.push(await trickler(url));
      // Every one of them is dripping now; a normal client asks.
      const health = await timed(() => fetch(`${server.url}/healthz`));
      expect(health.value.status).toBe(200);
      expect(health.ms).toBeLessThan(1000);
      const query = await timed(() => fetch(`${server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(COUNT) }));
      expect(query.value.status).toBe(200);
      expect(query.ms).toBeLessThan(1000);
      expect(tricklers.every((t) => t.closedAt === null)).toBe(true);
      // The request timeout (3 s here, checked every 750 ms) ends each of them, however long it would drip.
      await waitFor(() => tricklers.every((t) => t.closedAt !== null), 15_000);
      const open = tricklers.filter((t) => t.closedAt === null).length;
      expect(open).toBe(0);
      for (const t of tricklers) {
        expect(t.answer).toMatch(/^HTTP\/1\.1 408 /);
        expect((t.closedAt as number) - opened).toBeGreaterThan(2_500);
      }
    } finally {
      clearInterval(drip);
      for (const t of tricklers) t.socket.destroy();
      await server.kill();
    }
  }, 60_000);

  it('closes connections past --max-connections as they come, and serves again once some are gone', async () => {
    const server = await serve(DEMO, tempDir(), 20_000, ['--max-connections', '20']);
    const held: Trickler[] = [];
    try {
      const url = new URL(server.url);
      for (let i = 0; i < 20; i++) held.push(await trickler(url));
      // Connected (the kernel accepts it), then closed by the server without an answer.
      const extra = await trickler(url);
      await waitFor(() => extra.closedAt !== null, 5_000);
      expect(extra.closedAt).not.toBeNull();
      expect(extra.answer).toBe('');
      for (const t of held) t.socket.destroy();
      await waitFor(() => held.every((t) => t.closedAt !== null), 5_000);
      // The server notices the closes on its side a moment later.
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
        status = await fetch(`${server.url}/healthz`).then((r) => r.status, () => 0);
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(200);
    } finally {
      for (const t of held) t.socket.destroy();
      await server.kill();
    }
  }, 60_000);
});
