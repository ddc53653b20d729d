import { describe, expect, it } from 'vitest';
import { normalizeText } from './normalize-envelope.ts';
import type { ParseReply, ParseRequest } from './parse-protocol.ts';
import { takeLongStrings } from './long-strings.ts';
import { parseResponseBody, parseRunBody, parsesOffThread, type WorkerLike } from './parse-response.ts';

const encode = (v: unknown): ArrayBuffer => new TextEncoder().encode(JSON.stringify(v)).buffer as ArrayBuffer;

/**
 * A worker stand-in that runs the same code the real worker runs, asynchronously; `crash`: it stops
 * after sending the raw Blob, before any answer.
 */
function fakeWorker(crash = false): WorkerLike & { received: ParseRequest[]; transferred: Transferable[][] } {
  const listeners: Array<(e: MessageEvent<ParseReply>) => void> = [];
  const errorListeners: Array<(e: ErrorEvent) => void> = [];
  const received: ParseRequest[] = [];
  const transferred: Transferable[][] = [];
  const send = (data: ParseReply) => {
    for (const l of listeners) l({ data } as MessageEvent<ParseReply>);
  };
  return {
    received,
    transferred,
    postMessage(message: ParseRequest, transfer: Transferable[]) {
      received.push(message);
      transferred.push(transfer);
      queueMicrotask(() => {
        if (message.raw) send({ id: message.id, raw: new Blob([message.buffer], { type: message.raw.type }) });
        if (crash) {
          for (const l of errorListeners) l({ message: 'out of memory' } as ErrorEvent);
          return;
        }
        const reply = { id: message.id, view: normalizeText(new TextDecoder().decode(message.buffer), message.httpStatus, message.hints) };
        // As the real worker does: long strings travel as bytes.
        const longStrings = takeLongStrings(reply, 100);
        send(longStrings.length > 0 ? { ...reply, longStrings } : reply);
      });
    },
    addEventListener(type: string, listener: never) {
      if (type === 'message') listeners.push(listener);
      if (type === 'error') errorListeners.push(listener);
    },
  };
}

describe('parseResponseBody', () => {
  const body = { __payload__: [{ id: 1 }], __intent__: 'retrieve', __errors__: null };

  it('parses small bodies on the spot', async () => {
    const worker = fakeWorker();
    const view = await parseResponseBody(encode(body), 200, {}, { threshold: 1000, getWorker: () => worker });
    expect(view.sections[0]?.payload).toEqual([{ id: 1 }]);
    expect(worker.received).toHaveLength(0);
  });

  it('sends large bodies to the worker and leaves the caller its bytes', async () => {
    const worker = fakeWorker();
    const bytes = encode(body);
    const view = await parseResponseBody(bytes, 200, {}, { threshold: 10, getWorker: () => worker });
    expect(worker.received).toHaveLength(1);
    expect(view.sections[0]?.payload).toEqual([{ id: 1 }]);
    expect(bytes.byteLength).toBeGreaterThan(0);
  });

  it('puts back the long strings the worker sent as bytes before anyone reads the view', async () => {
    const long = `${'x\u200b'.repeat(200)}12345678901234567890`;
    const view = await parseResponseBody(encode({ ...body, __payload__: [{ id: 1, body: long }] }), 200, {}, { threshold: 10, getWorker: () => fakeWorker() });
    expect(view.sections[0]?.payload).toEqual([{ id: 1, body: long }]);
  });

  it('falls back to the main thread when no worker can be made', async () => {
    const view = await parseResponseBody(encode(body), 200, {}, { threshold: 10, getWorker: () => null });
    expect(view.intent).toBe('retrieve');
  });

  it('decides by size', () => {
    expect(parsesOffThread(10, 100)).toBe(false);
    expect(parsesOffThread(101, 100)).toBe(true);
  });
});

describe('parseRunBody (issue 31: a 50 MB answer is not copied on the window\'s thread)', () => {
  // A big number and a zero-width space: the raw Blob must hold the bytes exactly as sent.
  const text = '{"__payload__":[{"id":12345678901234567890,"t":"a\u200bb"}],"__intent__":"retrieve","__errors__":null}';
  const bytesOf = () => new TextEncoder().encode(text).buffer as ArrayBuffer;

  it('hands a large body to the worker itself, not a copy, and gets back its exact bytes as the raw Blob', async () => {
    const worker = fakeWorker();
    const bytes = bytesOf();
    const { view, raw } = await parseRunBody(bytes, 200, {}, 'application/json; charset=utf-8', { threshold: 10, getWorker: () => worker });
    expect(worker.received[0]?.buffer).toBe(bytes);
    expect(worker.transferred[0]).toEqual([bytes]);
    expect(view.intent).toBe('retrieve');
    expect(await raw.text()).toBe(text);
    expect(raw.type).toBe('application/json; charset=utf-8');
  });

  it('keeps the raw bytes when the worker stops before it answers', async () => {
    const { view, raw } = await parseRunBody(bytesOf(), 200, {}, 'application/json', { threshold: 10, getWorker: () => fakeWorker(true) });
    expect(view.failed).toBeTruthy();
    expect(await raw.text()).toBe(text);
  });

  it('reads a small body on the spot and makes its raw Blob there', async () => {
    const worker = fakeWorker();
    const { view, raw } = await parseRunBody(bytesOf(), 200, {}, 'application/json', { threshold: 1000, getWorker: () => worker });
    expect(worker.received).toHaveLength(0);
    expect(view.intent).toBe('retrieve');
    expect(await raw.text()).toBe(text);
  });
});
