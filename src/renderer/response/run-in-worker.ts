/**
 * A Run's answer read by the parse worker itself (issue 31): the worker fetches, reads the body up to
 * the answer limit, makes the raw Blob and parses it; the window's thread gets the head, the Blob (by
 * reference) and the view, never the body's bytes. Reading a 64 MiB body on the window's thread was
 * the longest task of a Run, even read in paced pieces. Cancel aborts the worker's fetch; its errors
 * are the transport's own sentences.
 */
import { CancelledError, NetworkError, type HttpRequestSpec } from '../transport/transport.ts';
import { notJsonView, type NormalizeHints } from './normalize-envelope.ts';
import type { ResponseHead } from './parse-protocol.ts';
import { ask, type WorkerLike } from './parse-response.ts';
import type { ResultView } from './result-view.ts';

/** The answer of a Run: what the response said, its view and its exact bytes as the raw Blob. */
export type RunAnswer = ResponseHead & { view: ResultView; raw: Blob };

/** `request`: as the transport's `forWorker` made it (its headers and answer limit are sent as they are). */
export async function fetchRunInWorker(worker: WorkerLike, request: HttpRequestSpec, hints: NormalizeHints, signal?: AbortSignal): Promise<RunAnswer> {
  if (signal?.aborted) throw new CancelledError();
  const { outcome, forget } = ask(worker, (id) => ({ message: { id, fetch: request, hints }, transfer: [] }));
  let cancel = () => undefined as void;
  const cancelled = new Promise<never>((_, reject) => {
    cancel = () => {
      forget();
      reject(new CancelledError());
    };
    signal?.addEventListener('abort', cancel, { once: true });
  });
  try {
    const reply = await Promise.race([outcome, cancelled]);
    if ('fetchFailed' in reply) throw reply.fetchFailed.cancelled ? new CancelledError() : new NetworkError(reply.fetchFailed.message);
    // No head: the worker stopped before the answer came.
    if (!reply.head) throw new NetworkError('failure' in reply ? reply.failure : 'The answer could not be read (the parse worker stopped).');
    const { head } = reply;
    const view = 'view' in reply ? reply.view : notJsonView(head.status, reply.failure);
    // Only a worker that stopped before it made the Blob leaves none: the view then says it failed.
    return { ...head, view, raw: reply.raw ?? new Blob([], { type: head.headers['content-type'] ?? 'application/json' }) };
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
