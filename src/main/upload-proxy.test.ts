import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { UPLOAD_CANCELLED_MESSAGE, type UploadIpcRequest } from '../shared/bridge.ts';
import { ProxyRequestError } from './http-proxy.ts';
import type { IncomingLike, OutgoingRequest } from './net/outgoing.ts';
import { testConnections } from './testing/test-connections.ts';
import { encodeMultipart, UploadProxy, validateUploadRequest } from './upload-proxy.ts';

const bytes = (n: number, fill = 7) => new Uint8Array(n).fill(fill);

const request = (extra: Partial<UploadIpcRequest> = {}): UploadIpcRequest => ({
  uploadId: 'u1',
  connectionId: 'conn-1',
  url: 'http://127.0.0.1:1/jql',
  headers: { Accept: 'application/json' },
  parts: [
    { kind: 'field', name: 'query', value: '{"__meta__":{"namespace":"tickets.Document","intent":"create"}}' },
    { kind: 'file', name: 'file', fileName: 'a "quoted"\r\nname.bin', contentType: 'application/octet-stream', data: bytes(600 * 1024) },
  ],
  timeoutMs: 5000,
  ...extra,
});

/** An OutgoingRequest that records what was written and answers when told. */
function fakeOutgoing() {
  const events = new EventEmitter();
  const written: Uint8Array[] = [];
  const headers: Record<string, string> = {};
  let ended = false;
  let aborted = false;
  const outgoing: OutgoingRequest = {
    setHeader: (name, value) => void (headers[name] = value),
    write: (chunk, callback) => {
      written.push(chunk);
      setImmediate(callback);
    },
    end: () => {
      ended = true;
      events.emit('ended');
    },
    abort: () => void (aborted = true),
    uploaded: () => null,
    on: (event: string, listener: (...args: any[]) => void) => events.on(event, listener),
  };
  const answer = (status: number, body: string, responseHeaders: Record<string, string | string[]> = { 'content-type': 'application/json' }) => {
    const response = new EventEmitter();
    const incoming = Object.assign(response, { statusCode: status, statusMessage: status === 200 ? 'OK' : 'Payload Too Large', headers: responseHeaders }) as unknown as IncomingLike;
    events.emit('response', incoming);
    response.emit('data', new TextEncoder().encode(body));
    response.emit('end');
  };
  return {
    outgoing,
    written,
    headers,
    answer,
    events,
    get ended() {
      return ended;
    },
    get aborted() {
      return aborted;
    },
  };
}

describe('validateUploadRequest', () => {
  it('accepts a well-formed upload, drops Content-Type/Length and defaults an odd content type', () => {
    const valid = validateUploadRequest({
      ...request(),
      headers: { 'content-type': 'text/plain', 'Content-Length': '5', Authorization: 'Bearer t' },
      parts: [{ kind: 'file', name: 'f', fileName: 'x', contentType: 'text/plain\r\nX-Evil: 1', data: bytes(3) }],
    });
    expect(valid.headers).toEqual({ Authorization: 'Bearer t' });
    expect(valid.parts[0]).toMatchObject({ contentType: 'application/octet-stream' });
  });

  it('refuses what main should not send', () => {
    const bad: unknown[] = [
      null,
      { ...request(), uploadId: '../x' },
      { ...request(), url: 'file:///etc/passwd' },
      { ...request(), url: 'https://u:p@host/jql' },
      { ...request(), connectionId: '' },
      { ...request(), headers: { 'X-A': 'a\r\nb' } },
      { ...request(), parts: [] },
      { ...request(), parts: [{ kind: 'file', name: 'f', fileName: 'x', data: 'text' }] },
      { ...request(), parts: [{ kind: 'field', name: '', value: 'x' }] },
      { ...request(), parts: [{ kind: 'other', name: 'x' }] },
    ];
    for (const input of bad) expect(() => validateUploadRequest(input), JSON.stringify(input)).toThrow(ProxyRequestError);
  });
});

describe('encodeMultipart', () => {
  it('encodes parts that a multipart parser reads back intact, names escaped', async () => {
    const data = new Uint8Array(700_000).map((_, i) => i % 251);
    const body = encodeMultipart([
      { kind: 'field', name: 'query', value: '{"ü": "\\"x\\""}' },
      { kind: 'file', name: 'doc "1"', fileName: 'report\r\n.pdf', contentType: 'application/pdf', data },
    ]);
    expect(body.total).toBe(body.chunks.reduce((n, c) => n + c.byteLength, 0));
    const form = await new Response(new Blob(body.chunks as ConstructorParameters<typeof Blob>[0]), { headers: { 'content-type': body.contentType } }).formData();
    expect(form.get('query')).toBe('{"ü": "\\"x\\""}');
    // Quotes and line breaks are escaped on the wire (%22, %0D%0A) and read back by the parser.
    expect(new TextDecoder().decode(body.chunks[3])).toContain('name="doc %221%22"; filename="report%0D%0A.pdf"');
    const file = form.get('doc "1"') as File;
    expect(file.name).toBe('report\r\n.pdf');
    expect(file.type).toBe('application/pdf');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(data);
  });
});

/** The gateway with conn-1 registered (a loopback origin the user allowed), holding a token. */
async function gateway() {
  const c = testConnections();
  await c.add({ id: 'conn-1', baseUrl: 'http://127.0.0.1:1', authClass: 'jwt' }, 'main-held-token');
  return c.gateway;
}

/** Lets the gateway's checks (microtasks only) finish, before the first chunk's write callback. */
async function settle() {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

describe('UploadProxy', () => {
  it('streams the body chunk by chunk, reports progress and returns the answer without cookies', async () => {
    const fake = fakeOutgoing();
    const progress: Array<[number, number]> = [];
    const proxy = new UploadProxy({ gateway: await gateway(), open: () => fake.outgoing, onProgress: (p) => progress.push([p.loaded, p.total]), progressIntervalMs: 1 });
    const pending = proxy.perform(request());
    await settle();
    expect(proxy.active).toBe(1);
    await new Promise((resolve) => fake.events.once('ended', resolve));
    fake.answer(200, '{"__payload__":{"id":1}}', { 'content-type': 'application/json', 'set-cookie': ['jql_session=x'] });
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.headers).toEqual({ 'content-type': 'application/json' });
    expect(new TextDecoder().decode(res.body)).toBe('{"__payload__":{"id":1}}');
    expect(fake.headers['Content-Type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(fake.headers.Accept).toBe('application/json');
    // Main's credential, to the connection's origin.
    expect(fake.headers.Authorization).toBe('Bearer main-held-token');
    expect(fake.written.length).toBeGreaterThan(3);
    const total = fake.written.reduce((n, c) => n + c.byteLength, 0);
    expect(progress[0]).toEqual([0, total]);
    expect(progress.at(-1)).toEqual([total, total]);
    expect(progress.every(([loaded], i) => i === 0 || loaded >= progress[i - 1]![0])).toBe(true);
    expect(proxy.active).toBe(0);
  });

  it('cancels by id: aborts the request and rejects with the cancel message', async () => {
    const fake = fakeOutgoing();
    const proxy = new UploadProxy({ gateway: await gateway(), open: () => fake.outgoing, onProgress: vi.fn() });
    const pending = proxy.perform(request());
    await settle();
    proxy.cancel('u1');
    await expect(pending).rejects.toThrow(UPLOAD_CANCELLED_MESSAGE);
    expect(fake.aborted).toBe(true);
    expect(fake.ended).toBe(false);
    expect(proxy.active).toBe(0);
    proxy.cancel('unknown');
  });

  it('words network errors and refuses a second upload under the same id', async () => {
    const fake = fakeOutgoing();
    const proxy = new UploadProxy({ gateway: await gateway(), open: () => fake.outgoing, onProgress: vi.fn() });
    const pending = proxy.perform(request());
    await settle();
    await expect(proxy.perform(request())).rejects.toThrow(/already running/);
    fake.events.emit('error', new Error('connect ECONNREFUSED'));
    await expect(pending).rejects.toThrow('Could not reach http://127.0.0.1:1/jql (connect ECONNREFUSED).');
  });

  it('takes an early answer (payload_too_large) while the body is still being sent', async () => {
    const fake = fakeOutgoing();
    const proxy = new UploadProxy({ gateway: await gateway(), open: () => fake.outgoing, onProgress: vi.fn() });
    const pending = proxy.perform(request());
    await settle();
    fake.answer(413, '{"__errors__":[{"code":"payload_too_large"}]}');
    await expect(pending).resolves.toMatchObject({ status: 413 });
  });

  it('sends nothing to an origin that is not the connection\'s, and refuses a redirect', async () => {
    const fake = fakeOutgoing();
    const open = vi.fn(() => fake.outgoing);
    const proxy = new UploadProxy({ gateway: await gateway(), open, onProgress: vi.fn() });
    await expect(proxy.perform(request({ url: 'http://collector.example/jql' }))).rejects.toThrow(/is not the origin of this connection/);
    expect(open).not.toHaveBeenCalled();
    const pending = proxy.perform(request());
    await settle();
    fake.answer(307, '', { location: 'http://127.0.0.1:9229/json' });
    await expect(pending).rejects.toThrow(/answered 307, a redirect to http:\/\/127\.0\.0\.1:9229\/json; the console follows no redirects/);
  });
});
