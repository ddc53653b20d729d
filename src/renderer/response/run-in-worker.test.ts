import { describe, expect, it } from 'vitest';
import { createBrowserTransport } from '../transport/browser-transport.ts';
import { CancelledError, NetworkError, type HttpRequestSpec } from '../transport/transport.ts';
import { fetchRunInWorker } from './run-in-worker.ts';
import { workerWith } from './worker-stand-in.fixture.ts';

const request = (extra: Partial<HttpRequestSpec> = {}): HttpRequestSpec => ({ connectionId: 'c', url: 'http://127.0.0.1:9/jql', method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}', withCredentials: false, ...extra });
// A big number and a zero-width space: the raw Blob must hold the bytes exactly as sent.
const text = '{"__payload__":[{"id":12345678901234567890,"t":"a\u200bb"}],"__intent__":"retrieve","__errors__":null}';

describe('a Run read by the parse worker (issue 31: no body bytes on the window\'s thread)', () => {
  it('fetches in the worker: the window gets the head, the exact bytes as a Blob and the view, never the body', async () => {
    const { worker, toWindow } = workerWith(async () => new Response(text, { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json; charset=utf-8' } }));
    const answer = await fetchRunInWorker(worker, request(), {});
    expect(answer.status).toBe(200);
    expect(answer.size).toBe(new TextEncoder().encode(text).byteLength);
    expect(answer.view.intent).toBe('retrieve');
    expect(await answer.raw.text()).toBe(text);
    expect(answer.raw.type).toBe('application/json; charset=utf-8');
    // Nothing that crossed holds the body as bytes or as text: the raw answer crossed as a Blob.
    for (const { message, transfer } of toWindow) {
      expect(transfer).toEqual([]);
      expect(Object.values(message).some((v) => v instanceof ArrayBuffer || ArrayBuffer.isView(v))).toBe(false);
      expect(JSON.stringify(message)).not.toContain('"id":12345678901234567890');
    }
    expect(toWindow.some(({ message }) => 'raw' in message && message.raw instanceof Blob)).toBe(true);
  });

  it('sends the page\'s headers (the local admin secret) by message, never in the URL, and keeps the answer limit', async () => {
    let sentUrl = '';
    let sentInit: RequestInit | undefined;
    const { worker, toWorker } = workerWith(async (url, init) => ((sentUrl = url), (sentInit = init), new Response(text, { status: 200 })));
    const page = () => ({ origin: 'http://127.0.0.1:9', secret: () => 'page-secret' });
    const transport = createBrowserTransport(async () => new Response(''), { of: () => 5 * 1024 * 1024 }, page);
    await fetchRunInWorker(worker, transport.forWorker!(request({ connectionCredentials: true })), {});
    expect(sentUrl).toBe('http://127.0.0.1:9/jql');
    expect(new Headers(sentInit?.headers).get('x-jql-local-admin')).toBe('page-secret');
    expect(sentInit?.credentials).toBe('same-origin');
    expect(sentInit?.redirect).toBe('manual');
    expect((toWorker[0] as { fetch: HttpRequestSpec }).fetch.answerLimitBytes).toBe(5 * 1024 * 1024);
  });

  it('stops at the answer limit with the transport\'s sentence, and refuses a redirect', async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(97);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({ pull: (c) => void (pulled++, c.enqueue(chunk)) });
    const big = workerWith(async () => new Response(endless, { status: 200 }));
    const tooLarge = fetchRunInWorker(big.worker, request({ answerLimitBytes: 4 * 1024 * 1024 }), {});
    await expect(tooLarge).rejects.toBeInstanceOf(NetworkError);
    await expect(tooLarge).rejects.toThrow(/larger than this connection's answer limit \(4 MiB\)/);
    expect(pulled).toBeLessThan(8);
    const moved = workerWith(async () => new Response(null, { status: 307, headers: { location: 'http://elsewhere/jql' } }));
    await expect(fetchRunInWorker(moved.worker, request(), {})).rejects.toThrow(/answered with a redirect \(307\)/);
    const unreachable = workerWith(async () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(fetchRunInWorker(unreachable.worker, request(), {})).rejects.toThrow(/Could not reach http:\/\/127.0.0.1:9\/jql \(Failed to fetch\)/);
  });

  it('Cancel rejects at once and aborts the worker\'s fetch', async () => {
    let aborted = false;
    const { worker, toWorker } = workerWith(
      (_url, init) =>
        new Promise<Response>((_, reject) =>
          init.signal?.addEventListener('abort', () => {
            aborted = true;
            reject(new DOMException('aborted', 'AbortError'));
          }),
        ),
    );
    const controller = new AbortController();
    const running = fetchRunInWorker(worker, request(), {}, controller.signal);
    await new Promise((r) => setTimeout(r, 0));
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(CancelledError);
    await new Promise((r) => setTimeout(r, 0));
    expect(toWorker.some((m) => 'abort' in m)).toBe(true);
    expect(aborted).toBe(true);
  });
});
