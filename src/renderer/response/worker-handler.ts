/**
 * What the parse worker does with each message (parse.worker.ts wires it to the worker's scope; tests
 * run it as it is). A parse request decodes, parses and normalizes bytes the window sent; a fetch
 * request (issue 31: a Run's, or a describe's) first reads the answer itself, through the browser transport's own rules (no
 * redirects, the answer limit, the sentences of its errors), so a 64 MiB body is read on this thread,
 * not the window's. A reply that cannot be posted back is reported as a failure that names the
 * answer, not the console.
 */
import { inSlices, type DescribeSliceMessage } from './describe-slices.ts';
import { takeLongStrings, takePayloadLongTexts } from './long-strings.ts';
import type { FetchRunRequest, ParseReply, ParseRequest, WorkerRequest } from './parse-protocol.ts';
import { readAnswer } from './read-answer.ts';
import { createBrowserTransport, type FetchLike } from '../transport/browser-transport.ts';
import { CancelledError, type HttpResult } from '../transport/transport.ts';

export type PostReply = (message: ParseReply | DescribeSliceMessage, transfer?: Transferable[]) => void;

export function createWorkerHandler(post: PostReply, fetchImpl: FetchLike): (message: WorkerRequest) => void {
  // The page's headers come in the request: this side adds none. Nothing else runs on this thread,
  // so the body is read without pauses.
  const transport = createBrowserTransport(fetchImpl, undefined, () => null, { everyBytes: Number.POSITIVE_INFINITY });
  const fetching = new Map<number, AbortController>();

  function parse(id: number, buffer: ArrayBuffer, request: Omit<ParseRequest, 'id' | 'buffer'>): void {
    // A Blob crosses to the window by reference: its bytes are not copied on the window's thread.
    if (request.raw) post({ id, raw: new Blob([buffer], { type: request.raw.type }) });
    let reply: ParseReply;
    try {
      reply = { id, ...readAnswer(request, new TextDecoder().decode(buffer)) };
    } catch (err) {
      reply = { id, failure: `The answer could not be read (${(err as Error).message}).` };
    }
    try {
      const transfer: Transferable[] = [];
      if ('view' in reply) {
        // A Run's payload is shown, never read whole: its long strings stay code units (long-text.ts).
        const longTexts = request.raw ? takePayloadLongTexts(reply.view.sections) : [];
        const longStrings = takeLongStrings(reply as unknown as Record<string, unknown>);
        if (longTexts.length > 0) reply = { ...reply, longTexts };
        if (longStrings.length > 0) reply = { ...reply, longStrings };
        transfer.push(...longTexts.map((t) => t.units.buffer), ...longStrings.map((s) => s.bytes));
      }
      // A large describe goes in slices, each rebuilt on the window's thread as a task of its own; the
      // reply, last, carries the long strings' bytes.
      const messages = inSlices(reply);
      messages.forEach((message, i) => post(message, i === messages.length - 1 ? transfer : []));
    } catch (err) {
      post({ id, failure: `The answer could not be handed to the window (${(err as Error).message}); it may be nested too deeply to show. See the raw answer.` });
    }
  }

  async function fetchThenParse({ id, fetch: request, hints, kind = 'answer' }: FetchRunRequest): Promise<void> {
    const controller = new AbortController();
    fetching.set(id, controller);
    let result: HttpResult;
    try {
      result = await transport.send(request, { signal: controller.signal });
    } catch (err) {
      return post({ id, fetchFailed: { cancelled: err instanceof CancelledError, message: (err as Error).message } });
    } finally {
      fetching.delete(id);
    }
    const { body, ...head } = result;
    post({ id, head: { ...head, size: body.byteLength } });
    // A describe's bytes are read into the describe and let go: only a Run's answer keeps them as its raw Blob.
    const raw = kind === 'answer' ? { raw: { type: result.headers['content-type'] ?? 'application/json' } } : {};
    parse(id, body, { httpStatus: result.status, hints, kind, ...raw });
  }

  return (message) => {
    if ('abort' in message) return fetching.get(message.id)?.abort();
    if ('fetch' in message) return void fetchThenParse(message);
    const { id, buffer, ...request } = message;
    parse(id, buffer, request);
  };
}
