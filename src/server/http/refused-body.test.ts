// Issue 17.12: a POST /jql over the body limit must reach Node's fetch as the 413 JSON answer, not as
// a broken pipe. Before, the server closed the socket while the client was still writing a streamed
// body: fetch failed with EPIPE every time for 30 MiB and more. Over a real socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_WORKSPACE, writeWorkspace } from '../testing/fixture.ts';
import { startFileServer, type FileServer } from '../testing/file-server.ts';

const MiB = 1024 * 1024;
let s: FileServer;
beforeAll(async () => {
  s = await startFileServer({ workspace: writeWorkspace(LIBRARY_WORKSPACE) });
});
afterAll(() => s.close());

/** A body streamed in 64 KiB chunks with no declared length, as a client uploading from a stream sends it. */
function streamed(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(97);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

async function send(body: NonNullable<RequestInit['body']>, contentType = 'application/json'): Promise<{ status: number; body: any }> {
  const res = await fetch(`${s.url}/jql`, { method: 'POST', headers: { 'content-type': contentType }, body, duplex: 'half' } as RequestInit);
  return { status: res.status, body: await res.json() };
}

describe('a body the server refuses unread', () => {
  it('reaches fetch as 413 payload_too_large, streamed or with a declared length', { timeout: 60_000 }, async () => {
    for (const size of [30 * MiB, 30 * MiB, 30 * MiB, 60 * MiB, 60 * MiB]) {
      const res = await send(streamed(size));
      expect(res.status, `${size / MiB} MiB streamed`).toBe(413);
      expect(res.body.__errors__[0].code).toBe('payload_too_large');
    }
    const declared = await send(new Uint8Array(20 * MiB).fill(32));
    expect(declared.status).toBe(413);
    expect(declared.body.__errors__[0].code).toBe('payload_too_large');
  });

  it('reaches fetch as 415 when a large body has the wrong type', { timeout: 60_000 }, async () => {
    const res = await send(streamed(30 * MiB), 'text/plain');
    expect(res.status).toBe(415);
    expect(res.body.__errors__[0].code).toBe('unsupported_media_type');
  });

  it('keeps answering on the same server afterwards', async () => {
    const res = await send(JSON.stringify({ __meta__: { namespace: 'lib.Book', intent: 'count' } }));
    expect(res).toEqual({ status: 200, body: expect.objectContaining({ __payload__: { count: 0 } }) });
  });
});
