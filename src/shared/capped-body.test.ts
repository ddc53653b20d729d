import { describe, expect, it } from 'vitest';
import { readCappedBytes } from './capped-body.ts';

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
});
