/**
 * Reads a response body into a ResultView: small bodies on the spot, bodies above the threshold in
 * a worker (parse.worker.ts) so the window stays responsive. The caller keeps the raw bytes as a
 * Blob for the raw view and for saving to a file.
 */
import { normalizeText, type NormalizeHints } from './normalize-envelope.ts';
import type { ParseReply, ParseRequest } from './parse-protocol.ts';
import type { ResultView } from './result-view.ts';

/** Above this many bytes the body is parsed off the main thread. */
export const OFF_THREAD_THRESHOLD_BYTES = 256 * 1024;

export interface WorkerLike {
  postMessage(message: ParseRequest, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ParseReply>) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
}

export interface ParseOptions {
  threshold?: number;
  /** Made lazily the first time a body is large; tests pass a fake, the app a real Worker. */
  getWorker?: () => WorkerLike | null;
}

let nextId = 1;
const pending = new Map<number, { resolve: (v: ResultView) => void; reject: (e: Error) => void }>();
const wired = new WeakSet<WorkerLike>();

function wire(worker: WorkerLike): void {
  if (wired.has(worker)) return;
  wired.add(worker);
  worker.addEventListener('message', (event: MessageEvent<ParseReply>) => {
    const reply = event.data;
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if ('view' in reply) waiter.resolve(reply.view);
    else waiter.reject(new Error(reply.failure));
  });
  worker.addEventListener('error', (event: ErrorEvent) => {
    for (const [id, waiter] of pending) {
      pending.delete(id);
      waiter.reject(new Error(event.message || 'The parse worker failed.'));
    }
  });
}

export function parsesOffThread(byteLength: number, threshold = OFF_THREAD_THRESHOLD_BYTES): boolean {
  return byteLength > threshold;
}

export async function parseResponseBody(
  bytes: ArrayBuffer,
  httpStatus: number,
  hints: NormalizeHints,
  options: ParseOptions = {},
): Promise<ResultView> {
  const worker = parsesOffThread(bytes.byteLength, options.threshold) ? options.getWorker?.() : null;
  if (!worker) return normalizeText(new TextDecoder().decode(bytes), httpStatus, hints);
  wire(worker);
  const id = nextId++;
  // A copy goes to the worker (transferred), so the caller's buffer stays usable.
  const copy = bytes.slice(0);
  return new Promise<ResultView>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, buffer: copy, httpStatus, hints }, [copy]);
  });
}
