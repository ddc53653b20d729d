/**
 * Decodes, parses and normalizes a large response body away from the window's thread, so a
 * 100,000-record payload or a 100,000-model describe does not freeze typing or scrolling while it
 * is read. A reply that cannot be posted back is reported as a failure that names the answer, not
 * the console.
 */
import type { ParseReply, ParseRequest } from './parse-protocol.ts';
import { inSlices, type DescribeSliceMessage } from './describe-slices.ts';
import { takeLongStrings } from './long-strings.ts';
import { readAnswer } from './read-answer.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ParseRequest>) => void) | null;
  postMessage(message: ParseReply | DescribeSliceMessage, transfer?: Transferable[]): void;
};

scope.onmessage = (event) => {
  const { id, buffer, raw, ...request } = event.data;
  // A Blob crosses to the window by reference: its bytes are not copied on the window's thread.
  if (raw) scope.postMessage({ id, raw: new Blob([buffer], { type: raw.type }) });
  let reply: ParseReply;
  try {
    reply = { id, ...readAnswer(request, new TextDecoder().decode(buffer)) };
  } catch (err) {
    reply = { id, failure: `The answer could not be read (${(err as Error).message}).` };
  }
  try {
    if ('view' in reply) {
      const longStrings = takeLongStrings(reply as unknown as Record<string, unknown>);
      if (longStrings.length > 0) reply = { ...reply, longStrings };
    }
    const transfer = 'longStrings' in reply && reply.longStrings ? reply.longStrings.map((s) => s.bytes) : [];
    // A large describe goes in slices, each rebuilt on the window's thread as a task of its own; the
    // reply, last, carries the long strings' bytes.
    const messages = inSlices(reply);
    messages.forEach((message, i) => scope.postMessage(message, i === messages.length - 1 ? transfer : []));
  } catch (err) {
    scope.postMessage({ id, failure: `The answer could not be handed to the window (${(err as Error).message}); it may be nested too deeply to show. See the raw answer.` });
  }
};
