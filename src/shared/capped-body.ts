/**
 * Reading an answer's body with a cap on its size, for every side that reads another server (the
 * console's browser transport, the command line's remote reads): a Content-Length past the cap is
 * refused before any byte is read, and a body that keeps coming is cancelled once it passes the cap,
 * so memory stays bounded by the cap whatever the source sends.
 *
 * It also gives the thread back every `PACE_BYTES` (issue 31): when the network is faster than the
 * reader, each `read()` resolves at once, as a microtask, and reading 64 MiB (or copying 50 MB into
 * one buffer) would otherwise be a single task of a second or more that freezes the console's window.
 */

/** Bytes read, or copied, between two pauses that let the thread do other work. */
export const PACE_BYTES = 1024 * 1024;

export interface Pacing {
  everyBytes?: number;
  /** Resolves in a later task (a macrotask, not a microtask); tests count the calls. */
  pause?: () => Promise<void>;
}

/** The browser's `scheduler.yield()` where there is one (no 4 ms clamp of nested timers), else a timer. */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The body of `response`, at most `maxBytes` of it. Past the cap, `refuse` runs (e.g. to abort the
 * request itself), the body is cancelled and the error `tooLarge` makes is thrown.
 */
export async function readCappedBytes(
  response: Response,
  maxBytes: number,
  tooLarge: () => Error,
  refuse: () => void = () => undefined,
  { everyBytes = PACE_BYTES, pause = nextTask }: Pacing = {},
): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    refuse();
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  let chunks: Uint8Array[] = [];
  let total = 0;
  let sincePause = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // What was read is let go at once, not held until the error is handled.
      chunks = [];
      refuse();
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
    sincePause += value.byteLength;
    if (sincePause >= everyBytes) {
      sincePause = 0;
      await pause();
    }
  }
  const body = new Uint8Array(total);
  let at = 0;
  sincePause = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
    sincePause += chunk.byteLength;
    if (sincePause >= everyBytes && at < total) {
      sincePause = 0;
      await pause();
    }
  }
  return body;
}
