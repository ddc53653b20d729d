// Issue 29 "one budget": answers written to clients that do not read them have one bound across
// requests (limits.heldAnswerBytes). Real sockets that send a request and never read: once the answers
// waiting for them reach the bound, a new large answer is 503 server_busy with Retry-After instead of
// one more answer held in memory; once those clients read (or go away), answers flow again.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, writeWorkspace } from '../testing/fixture.ts';
import { startFileServer, type FileServer } from '../testing/file-server.ts';
import { stuckReader } from '../testing/stuck-reader.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const HELD = 12 * MiB;
const WORKSPACE = { ...LIBRARY_WORKSPACE, limits: { defaultLimit: 5, maxLimit: 5, maxValueBytes: MiB, maxAnswerBytes: 8 * MiB, heldAnswerBytes: HELD } };
/**
 * Five books of 1 MB: a page of them is 5 MB, more than the kernel takes of a connection that does
 * not read (it took a whole 1 MB answer on this machine, and none of a 4 MB one), so two pages fit in
 * the bound and the third does not.
 */
const PAGE = JSON.stringify({ __meta__: { namespace: 'lib.Book', intent: 'retrieve', limit: 5 }, title: null });

let s: FileServer;
const sockets: Socket[] = [];
beforeAll(async () => {
  s = await startFileServer({ workspace: writeWorkspace(WORKSPACE) });
  const books = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`b${i}`, { __meta__: { namespace: 'lib.Book', intent: 'create', return: { id: null } }, title: `${i} ${'x'.repeat(1_000_000)}` }]));
  const made = await s.post(books);
  expect(Object.values(made.body.__payload__).every((answer: any) => answer.errors === null)).toBe(true);
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await s.close();
});

/** Sends the page request on a raw socket and never reads: returns once the server has had time to answer. */
async function stuckClient(): Promise<Socket> {
  const socket = await stuckReader(s.url, PAGE);
  sockets.push(socket);
  return socket;
}

/** Reads the answer of a stuck client at last: its status line and its Retry-After. */
async function readAnswer(socket: Socket): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
  });
  socket.resume();
  // Each answer ends when its Content-Length is in; the connection stays open (keep-alive).
  for (;;) {
    const text = Buffer.concat(chunks).toString('latin1');
    const end = text.indexOf('\r\n\r\n');
    if (end >= 0) {
      const length = Number(/content-length: (\d+)/i.exec(text.slice(0, end))?.[1]);
      if (text.length - end - 4 >= length) {
        return { status: Number(text.slice(9, 12)), retryAfter: /retry-after: (\S+)/i.exec(text.slice(0, end))?.[1] ?? null, body: Buffer.concat(chunks).subarray(end + 4).toString('utf8') };
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('limits.heldAnswerBytes', () => {
  it('refuses new large answers with 503 server_busy while unread answers fill the bound, and answers again once they are read', async () => {
    const stuck: Socket[] = [];
    for (let i = 0; i < 8; i++) {
      stuck.push(await stuckClient());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A client that reads is refused for now: the answers nobody read hold the bound.
    const refused = await fetch(`${s.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: PAGE });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(((await refused.json()) as any).__errors__[0].code).toBe('server_busy');
    // What the stuck clients get once they read: some pages, the rest refused; never more pages
    // waiting at once than fit in the bound (plus what the kernel buffers of each connection took).
    const answers = await Promise.all(stuck.map(readAnswer));
    const pages = answers.filter((answer) => answer.status === 200);
    const busy = answers.filter((answer) => answer.status === 503);
    expect(pages.length + busy.length).toBe(stuck.length);
    expect(pages.length).toBeGreaterThan(0);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(answer.retryAfter).toBe('1');
      expect(JSON.parse(answer.body).__errors__[0].code).toBe('server_busy');
    }
    for (const answer of pages) expect(JSON.parse(answer.body).__payload__).toHaveLength(5);
    // Read, their answers no longer count: the same page is answered again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await fetch(`${s.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: PAGE });
    expect(again.status).toBe(200);
    expect(((await again.json()) as any).__payload__).toHaveLength(5);
  });
});
