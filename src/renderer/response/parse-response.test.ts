import { describe, expect, it } from 'vitest';
import { normalizeText } from './normalize-envelope.ts';
import type { ParseReply, ParseRequest } from './parse-protocol.ts';
import { parseResponseBody, parsesOffThread, type WorkerLike } from './parse-response.ts';

const encode = (v: unknown): ArrayBuffer => new TextEncoder().encode(JSON.stringify(v)).buffer as ArrayBuffer;

/** A worker stand-in that runs the same code the real worker runs, asynchronously. */
function fakeWorker(): WorkerLike & { received: ParseRequest[] } {
  const listeners: Array<(e: MessageEvent<ParseReply>) => void> = [];
  const received: ParseRequest[] = [];
  return {
    received,
    postMessage(message: ParseRequest) {
      received.push(message);
      queueMicrotask(() => {
        const view = normalizeText(new TextDecoder().decode(message.buffer), message.httpStatus, message.hints);
        for (const l of listeners) l({ data: { id: message.id, view } } as MessageEvent<ParseReply>);
      });
    },
    addEventListener(type: string, listener: never) {
      if (type === 'message') listeners.push(listener);
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

  it('falls back to the main thread when no worker can be made', async () => {
    const view = await parseResponseBody(encode(body), 200, {}, { threshold: 10, getWorker: () => null });
    expect(view.intent).toBe('retrieve');
  });

  it('decides by size', () => {
    expect(parsesOffThread(10, 100)).toBe(false);
    expect(parsesOffThread(101, 100)).toBe(true);
  });
});
