import { describe, expect, it } from 'vitest';
import { readCappedBytes } from './capped-body.ts';

/** A body whose chunks are all there before it is read: every `read()` resolves at once. */
function buffered(chunks: number, size: number) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < chunks; i++) controller.enqueue(new Uint8Array(size).fill(i % 256));
      controller.close();
    },
  });
  return { response: new Response(body) };
}

class TooLarge extends Error {}

/** A body of `chunks` chunks of `size` bytes, counting how many were pulled and whether it was cancelled. */
function streamed(chunks: number, size: number, headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === chunks) return controller.close();
      seen.pulled++;
      controller.enqueue(new Uint8Array(size).fill(65));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { response: new Response(body, { headers }), seen };
}

describe('readCappedBytes', () => {
  it('hands back the whole body when it stays within the cap', async () => {
    const { response } = streamed(3, 10);
    const bytes = await readCappedBytes(response, 30, () => new TooLarge());
    expect(bytes.byteLength).toBe(30);
    expect(new TextDecoder().decode(bytes)).toBe('A'.repeat(30));
  });

  it('refuses a declared Content-Length past the cap before reading a byte', async () => {
    const { response, seen } = streamed(100, 10, { 'content-length': '1000' });
    let refused = 0;
    await expect(readCappedBytes(response, 999, () => new TooLarge(), () => refused++)).rejects.toBeInstanceOf(TooLarge);
    expect(refused).toBe(1);
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThanOrEqual(1);
  });

  it('stops reading a body that keeps coming once it passes the cap', async () => {
    const { response, seen } = streamed(1_000_000, 1024);
    let refused = 0;
    await expect(readCappedBytes(response, 10 * 1024, () => new TooLarge(), () => refused++)).rejects.toBeInstanceOf(TooLarge);
    expect(refused).toBe(1);
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThan(20);
  });

  it('gives the thread back every so many bytes read and copied, however fast the body arrives (issue 31)', async () => {
    const chunk = 64 * 1024;
    const { response } = buffered(64, chunk); // 4 MiB, all buffered
    const everyBytes = 512 * 1024;
    let pauses = 0;
    const bytes = await readCappedBytes(response, 8 * 1024 * 1024, () => new TooLarge(), undefined, {
      everyBytes,
      pause: async () => {
        pauses++;
      },
    });
    // 4 MiB read then 4 MiB copied, a pause at least every 512 KiB of each (the last copy needs none).
    expect(pauses).toBeGreaterThanOrEqual(2 * (4 * 1024 * 1024) / everyBytes - 1);
    expect(bytes.byteLength).toBe(64 * chunk);
    // The bytes are whole and in order.
    for (let i = 0; i < 64; i++) expect(bytes[i * chunk]).toBe(i % 256);
  });

  it('lets a timer set before reading run before a large buffered body is read in full', async () => {
    const { response } = buffered(64, 64 * 1024);
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    let timerRanBeforeEnd = false;
    await readCappedBytes(response, 8 * 1024 * 1024, () => new TooLarge()).then(() => (timerRanBeforeEnd = timerRan));
    expect(timerRanBeforeEnd).toBe(true);
  });
});
