// Issue 15.4 over a real socket: PUT /jql reads and authorizes the query part before it stores any
// file part. An anonymous `count` with four big parts, or an anonymous create it may not make, writes
// nothing to disk (the data directory's store and temp folder are watched during the whole upload);
// a file part before the query is 400; the whole body is bounded by limits.maxUploadBytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeWorkspace } from '../testing/fixture.ts';
import { form, startFileServer, VAULT_WORKSPACE, type FileServer } from '../testing/file-server.ts';

const MiB = 1024 * 1024;
const BOUNDARY = 'jqlUploadOrder';

interface Part {
  name: string;
  /** A file part of this many bytes (streamed, never held), or a text part. */
  bytes?: number;
  text?: string;
}

/** A multipart body streamed part by part, so a 100 MiB upload costs the test no memory. */
function multipart(parts: Part[]): { body: ReadableStream<Uint8Array>; length: number } {
  const chunk = new Uint8Array(256 * 1024).fill(120);
  const encoder = new TextEncoder();
  const pieces: Array<Uint8Array | number> = [];
  for (const part of parts) {
    const disposition = part.bytes === undefined ? `name="${part.name}"` : `name="${part.name}"; filename="${part.name}.bin"`;
    const type = part.bytes === undefined ? '' : 'Content-Type: application/octet-stream\r\n';
    pieces.push(encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; ${disposition}\r\n${type}\r\n`));
    pieces.push(part.bytes ?? encoder.encode(part.text ?? ''));
    pieces.push(encoder.encode('\r\n'));
  }
  pieces.push(encoder.encode(`--${BOUNDARY}--\r\n`));
  const length = pieces.reduce((sum: number, piece) => sum + (typeof piece === 'number' ? piece : piece.length), 0);
  let index = 0;
  let left = -1;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[index];
      if (piece === undefined) return controller.close();
      if (typeof piece !== 'number') {
        index++;
        return controller.enqueue(piece);
      }
      if (left < 0) left = piece;
      const size = Math.min(left, chunk.length);
      left -= size;
      if (left === 0) {
        index++;
        left = -1;
      }
      controller.enqueue(size === chunk.length ? chunk : chunk.subarray(0, size));
    },
  });
  return { body, length };
}

describe('uploads are authorized before a byte is written', () => {
  let s: FileServer;
  beforeAll(async () => {
    s = await startFileServer();
  });
  afterAll(() => s.close());

  /** Sends the upload while the store and its temp folder are watched; returns the most bytes seen on disk. */
  async function watchedPut(parts: Part[], token?: string): Promise<{ status: number; body: any; mostOnDisk: number }> {
    let mostOnDisk = 0;
    const look = () => {
      mostOnDisk = Math.max(mostOnDisk, s.bytesOnDisk());
    };
    const timer = setInterval(look, 2);
    try {
      const { body, length } = multipart(parts);
      const res = await fetch(`${s.url}/jql`, {
        method: 'PUT',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(length), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
        duplex: 'half',
      } as RequestInit);
      const answer = { status: res.status, body: await res.json() };
      look();
      return { ...answer, mostOnDisk };
    } finally {
      clearInterval(timer);
    }
  }

  it('an anonymous count with four 24 MiB parts answers without writing a byte', async () => {
    const query = JSON.stringify({ __meta__: { namespace: 'tickets.Ticket', intent: 'count' } });
    const res = await watchedPut([{ name: 'query', text: query }, ...[1, 2, 3, 4].map((n) => ({ name: `part${n}`, bytes: 24 * MiB }))]);
    expect(res.status).toBe(422);
    expect(res.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'part1', message: expect.stringContaining('not used by the query') });
    expect(res.mostOnDisk).toBe(0);
    expect(s.stored()).toEqual({ blobs: [], temps: [] });
  });

  it('an anonymous create it may not make is 401 with nothing on disk', async () => {
    const query = JSON.stringify({
      __meta__: { namespace: 'tickets.Document', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: 'file' } } },
      title: 'anonymous',
      ticket: 1,
    });
    const res = await watchedPut([{ name: 'query', text: query }, { name: 'file', bytes: 32 * MiB }]);
    expect(res.status).toBe(401);
    expect(res.body.__errors__[0].code).toBe('unauthenticated');
    expect(res.mostOnDisk).toBe(0);
    expect(s.stored()).toEqual({ blobs: [], temps: [] });
  });

  it('a controller intent the caller may not run is refused before its part is stored', async () => {
    const viewer = await s.login('viewer', 'viewer-demo');
    const query = JSON.stringify({ __meta__: { namespace: 'learning.LearningContentRegistration', intent: 'upload_package', schema: 'controller' } });
    const res = await watchedPut([{ name: 'query', text: query }, { name: 'package', bytes: 16 * MiB }], viewer);
    expect(res.status).toBe(403);
    expect(res.mostOnDisk).toBe(0);
  });

  it('a file part before the query part is 400 invalid_request with nothing on disk', async () => {
    const query = JSON.stringify({ __meta__: { namespace: 'tickets.Ticket', intent: 'count' } });
    const res = await watchedPut([{ name: 'file', bytes: 16 * MiB }, { name: 'query', text: query }]);
    expect(res.status).toBe(400);
    expect(res.body.__errors__[0]).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('"query" part comes first') });
    expect(res.mostOnDisk).toBe(0);
  });
});

describe('limits.maxUploadBytes', () => {
  let s: FileServer;
  const KiB = 1024;
  beforeAll(async () => {
    s = await startFileServer({ workspace: writeWorkspace({ ...VAULT_WORKSPACE, limits: { maxFileBytes: 64 * KiB, maxUploadBytes: 100 * KiB } }) });
  });
  afterAll(() => s.close());
  const create = { __meta__: { namespace: 'vault.Doc', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: 'a', cover: 'b' } } }, title: 'Two' };

  it('refuses parts that together pass the limit with 413 naming it, storing nothing', async () => {
    // Chunked, with no declared length: the parts are counted as they arrive.
    const { body } = multipart([{ name: 'query', text: JSON.stringify(create) }, { name: 'a', bytes: 60 * KiB }, { name: 'b', bytes: 60 * KiB }]);
    const sent = await fetch(`${s.url}/jql`, { method: 'PUT', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body, duplex: 'half' } as RequestInit);
    const res = { status: sent.status, body: (await sent.json()) as any };
    expect(res.status).toBe(413);
    expect(res.body.__errors__[0]).toMatchObject({ code: 'payload_too_large', field: 'b', message: expect.stringContaining('limits.maxUploadBytes (102400 bytes)') });
    expect(s.stored()).toEqual({ blobs: [], temps: [] });
    const fits = await s.put(form(create, { a: { data: new Uint8Array(40 * KiB) }, b: { data: new Uint8Array(40 * KiB).fill(1) } }));
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
  });

  it('refuses a body declared larger than the limit before reading it, and the client reads the 413', async () => {
    const before = s.stored();
    const blob = new Blob([JSON.stringify(create), new Uint8Array(4 * MiB)]);
    const data = new FormData();
    data.append('query', JSON.stringify(create));
    data.append('a', blob, 'a.bin');
    const res = await fetch(`${s.url}/jql`, { method: 'PUT', body: data });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).__errors__[0].message).toMatch(/limits\.maxUploadBytes/);
    expect(s.stored()).toEqual(before);
  });
});
