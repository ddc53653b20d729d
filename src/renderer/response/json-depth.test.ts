import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, textNestsDeeperThan } from './json-depth.ts';
import type { ParseReply, ParseRequest } from './parse-protocol.ts';
import { parseResponseBody, type WorkerLike } from './parse-response.ts';
import { readAnswer } from './read-answer.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const nested = (depth: number) => `{"__payload__":${'['.repeat(depth)}${']'.repeat(depth)},"__errors__":null,"__intent__":"retrieve"}`;

describe('textNestsDeeperThan', () => {
  it('tells a body nested past the limit from one at it, counting objects and arrays alike', () => {
    // The envelope's own object is one level.
    expect(textNestsDeeperThan(bytes(nested(MAX_JSON_DEPTH - 1)))).toBe(false);
    expect(textNestsDeeperThan(bytes(nested(MAX_JSON_DEPTH)))).toBe(true);
    expect(textNestsDeeperThan(bytes(`${'{"a":'.repeat(10)}1${'}'.repeat(10)}`), 9)).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(textNestsDeeperThan(bytes(JSON.stringify({ s: '['.repeat(1000), t: `\\"${'{'.repeat(1000)}` })))).toBe(false);
  });
});

describe('a small body nested too deep is parsed in the worker', () => {
  function worker(): WorkerLike & { received: number } {
    const listeners: Array<(e: MessageEvent<ParseReply>) => void> = [];
    const w = {
      received: 0,
      postMessage({ id, buffer, ...request }: ParseRequest) {
        w.received++;
        const data: ParseReply = { id, ...readAnswer(request, new TextDecoder().decode(buffer)) };
        setTimeout(() => listeners.forEach((l) => l({ data } as MessageEvent<ParseReply>)));
      },
      addEventListener(type: string, listener: never) {
        if (type === 'message') listeners.push(listener);
      },
    };
    return w;
  }

  it('sends the 200 KB body of deep-nesting to the worker, and reads it as the main thread would', async () => {
    const deep = bytes(nested(100_000));
    expect(deep.byteLength).toBeLessThan(256 * 1024);
    const w = worker();
    const view = await parseResponseBody(deep.buffer as ArrayBuffer, 200, {}, { getWorker: () => w });
    expect(w.received).toBe(1);
    const onTheSpot = await parseResponseBody(bytes(nested(100_000)).buffer as ArrayBuffer, 200, {}, { getWorker: () => null });
    expect(view).toEqual(onTheSpot);
    expect(view.tooDeep).toBe(true);
  });

  it('keeps a small shallow body on the spot', async () => {
    const w = worker();
    await parseResponseBody(bytes(nested(3)).buffer as ArrayBuffer, 200, {}, { getWorker: () => w });
    expect(w.received).toBe(0);
  });
});
