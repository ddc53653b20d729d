/**
 * A Run's long strings never reach the window's answer model as strings (issue 31, huge-string): the
 * parse worker hands over their code units and a placeholder, and the views read bounded pieces that
 * put together are the exact string.
 */
import { describe, expect, it } from 'vitest';
import type { DescribeSliceMessage } from './describe-slices.ts';
import { LONG_STRING_BYTES } from './long-strings.ts';
import { LONG_TEXT_HEAD, LONG_TEXT_MARK, longTextOf, longTextUnits, placeholderOf, registerLongTexts } from './long-text.ts';
import type { ParseReply, WorkerRequest } from './parse-protocol.ts';
import { parseResponseBody, parseRunBody, type WorkerLike } from './parse-response.ts';
import { createWorkerHandler } from './worker-handler.ts';

/** The real worker's handler behind a stand-in; records what each message transfers. */
function realWorker() {
  const listeners: Array<(e: MessageEvent<ParseReply | DescribeSliceMessage>) => void> = [];
  const transferred: Transferable[] = [];
  const handle = createWorkerHandler(
    (message, transfer = []) => {
      transferred.push(...transfer);
      queueMicrotask(() => listeners.forEach((l) => l({ data: message } as MessageEvent<ParseReply>)));
    },
    () => Promise.reject(new Error('no fetch here')),
  );
  const worker: WorkerLike = {
    postMessage: (message: WorkerRequest) => queueMicrotask(() => handle(message)),
    addEventListener(type: string, listener: never) {
      if (type === 'message') listeners.push(listener);
    },
  };
  return { worker, transferred };
}

/** Every string in `value`, keys included (own walk, for the assertions). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      strings(v, out);
    }
  }
  return out;
}

const bytesOf = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;
// Past the limit, with characters of two UTF-16 units, a right-to-left mark, a zero-width space and a
// lone surrogate (JSON may send one): pieces cut through all of them.
const long = `start ${'€😀\u200f\u200b'.repeat(120_000)}\ud800 end`;
const body = (value: string) => `{"__payload__":[{"id":1,"body":${JSON.stringify(value)},"short":"kept"}],"__errors__":null,"__intent__":"retrieve"}`;

describe('long strings of a Run stay code units on the window side (issue 31)', () => {
  it('leaves no string longer than a placeholder in the answer model, and its pieces are the exact string', async () => {
    const { worker, transferred } = realWorker();
    const { view } = await parseRunBody(bytesOf(body(long)), 200, {}, 'application/json', { getWorker: () => worker, threshold: 0 });
    const longest = Math.max(...strings(view).map((s) => s.length));
    expect(longest).toBeLessThanOrEqual(LONG_TEXT_HEAD + 64);
    const row = (view.sections[0]!.payload as Array<Record<string, string>>)[0]!;
    expect(row.short).toBe('kept');
    const text = longTextOf(row.body)!;
    expect(text.length).toBe(long.length);
    expect(text.head).toBe(long.slice(0, LONG_TEXT_HEAD));
    // The code units crossed by transfer, not by copy.
    expect(transferred.some((t) => t instanceof ArrayBuffer && t.byteLength === long.length * 2)).toBe(true);
    let joined = '';
    for (let from = 0; from < text.length; from += 65_536) joined += text.piece(from, from + 65_536);
    expect(joined === long).toBe(true);
  });

  it('keeps a one-byte string in one byte a unit', () => {
    const latin = `${'s'.repeat(LONG_STRING_BYTES)}é`;
    const text = longTextUnits(latin, 'latin');
    expect(text.units.BYTES_PER_ELEMENT).toBe(1);
    registerLongTexts({}, [text]);
    expect(longTextOf(placeholderOf(text.id, latin))!.piece(LONG_STRING_BYTES - 2, LONG_STRING_BYTES + 1)).toBe('ssé');
  });

  it('gives equal strings of one answer one placeholder, and any other answer or string another that reads its own text', async () => {
    const { worker } = realWorker();
    const read = async (...values: string[]) => {
      const text = JSON.stringify({ __payload__: values.map((value, id) => ({ id, body: value })), __errors__: null, __intent__: 'retrieve' });
      const { view } = await parseRunBody(bytesOf(text), 200, {}, 'application/json', { getWorker: () => worker, threshold: 0 });
      return (view.sections[0]!.payload as Array<Record<string, string>>).map((row) => row.body!);
    };
    const other = `${long.slice(0, -1)}x`;
    const [first, again, third] = await read(long, long, other);
    // One buffer for the string sent twice in the answer; another for the one that differs in its last character.
    expect(first).toBe(again);
    expect(third).not.toBe(first);
    expect(longTextOf(third!)!.piece(long.length - 5, long.length)).toBe(other.slice(-5));
    expect(longTextOf(first!)!.piece(long.length - 5, long.length)).toBe(long.slice(-5));
    // The same string in another answer has an id of that answer: no answer can name another's text.
    const [later] = await read(long);
    expect(later).not.toBe(first);
    expect(longTextOf(later!)!.piece(0, long.length) === long).toBe(true);
  });

  it('reads a data string that starts with the mark as the string it is', () => {
    const sent = `${LONG_TEXT_MARK}9.abc${LONG_TEXT_MARK}not a placeholder`;
    expect(longTextOf(sent)).toBeNull();
  });

  it('gives an answer that is not a Run\'s (a describe, a client read) its strings whole, a lone surrogate included', async () => {
    const { worker } = realWorker();
    // The lone surrogate included, which UTF-8 cannot carry.
    const view = await parseResponseBody(bytesOf(body(long)), 200, {}, { getWorker: () => worker, threshold: 0 });
    expect((view.sections[0]!.payload as Array<Record<string, string>>)[0]!.body === long).toBe(true);
    const valid = long.replace('\ud800', '');
    const again = await parseResponseBody(bytesOf(body(valid)), 200, {}, { getWorker: () => worker, threshold: 0 });
    expect((again.sections[0]!.payload as Array<Record<string, string>>)[0]!.body === valid).toBe(true);
  });

  it('makes the whole text as a Blob for the clipboard, exact in UTF-8', async () => {
    const clean = `${'ab€😀'.repeat(400_000)}end`;
    const units = longTextUnits(clean, 'clean');
    registerLongTexts({}, [units]);
    const blob = await longTextOf(placeholderOf(units.id, clean))!.blob();
    expect(blob.size).toBe(new TextEncoder().encode(clean).byteLength);
    expect((await blob.text()) === clean).toBe(true);
  });
});
