/**
 * A Run's answer, or a describe, read by the parse worker itself (issue 31): the worker fetches, reads
 * the body up to the answer limit, makes a Run's raw Blob and parses it; the window's thread gets the
 * head, the Blob (by reference) and the view, never the body's bytes. Reading a 64 MiB body on the window's thread was
 * the longest task of a Run, even read in paced pieces. Cancel aborts the worker's fetch; its errors
 * are the transport's own sentences.
 */
import { CancelledError, NetworkError, type HttpRequestSpec } from '../transport/transport.ts';
import { notJsonView, type NormalizeHints } from './normalize-envelope.ts';
import type { ParseKind, ResponseHead } from './parse-protocol.ts';
import { ask, type DescribeParse, type Outcome, type WorkerLike } from './parse-response.ts';
import type { ResultView } from './result-view.ts';

/** The answer of a Run: what the response said, its view and its exact bytes as the raw Blob. */
export type RunAnswer = ResponseHead & { view: ResultView; raw: Blob };

/** A describe read by the worker: what the response said, its view (for its errors) and the describe. */
export type DescribeAnswer = ResponseHead & DescribeParse;

/**
 * Sends `request` for the worker to fetch and parse as `kind`; settles with the worker's reply and the
 * response's head, or throws the transport's error (CancelledError when `signal` aborts).
 */
async function fetchInWorker(worker: WorkerLike, request: HttpRequestSpec, hints: NormalizeHints, kind: ParseKind, signal?: AbortSignal): Promise<{ reply: Outcome; head: ResponseHead; view: ResultView }> {
  if (signal?.aborted) throw new CancelledError();
  const { outcome, forget } = ask(worker, (id) => ({ message: { id, fetch: request, hints, kind }, transfer: [] }));
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
    return { reply, head, view: 'view' in reply ? reply.view : notJsonView(head.status, reply.failure) };
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/** `request`: as the transport's `forWorker` made it (its headers and answer limit are sent as they are). */
export async function fetchRunInWorker(worker: WorkerLike, request: HttpRequestSpec, hints: NormalizeHints, signal?: AbortSignal): Promise<RunAnswer> {
  const { reply, head, view } = await fetchInWorker(worker, request, hints, 'answer', signal);
  // Only a worker that stopped before it made the Blob leaves none: the view then says it failed.
  return { ...head, view, raw: reply.raw ?? new Blob([], { type: head.headers['content-type'] ?? 'application/json' }) };
}

/**
 * A describe read by the worker (issue 31, huge-describe): its bytes (19 MB for 100,000 models) are
 * read, parsed and checked on the worker's thread; the window gets the head, the view and the
 * describe, a large one in slices (describe-slices.ts).
 */
export async function fetchDescribeInWorker(worker: WorkerLike, request: HttpRequestSpec): Promise<DescribeAnswer> {
  const { reply, head, view } = await fetchInWorker(worker, request, {}, 'describe');
  return { ...head, view, describe: 'describe' in reply ? (reply.describe ?? null) : null };
}
