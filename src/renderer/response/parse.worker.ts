/**
 * Decodes, parses and normalizes a large response body away from the window's thread, so a
 * 100,000-record payload or a 100,000-model describe does not freeze typing or scrolling while it
 * is read. A reply that cannot be posted back is reported as a failure that names the answer, not
 * the console.
 */
import type { ParseReply, ParseRequest } from './parse-protocol.ts';
import { inSlices, type DescribeSliceMessage } from './describe-slices.ts';
import { readAnswer } from './read-answer.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ParseRequest>) => void) | null;
  postMessage(message: ParseReply | DescribeSliceMessage): void;
};

scope.onmessage = (event) => {
  const { id, buffer, ...request } = event.data;
  let reply: ParseReply;
  try {
    reply = { id, ...readAnswer(request, new TextDecoder().decode(buffer)) };
  } catch (err) {
    reply = { id, failure: `The answer could not be read (${(err as Error).message}).` };
  }
  try {
    // A large describe goes in slices, each rebuilt on the window's thread as a task of its own.
    for (const message of inSlices(reply)) scope.postMessage(message);
  } catch (err) {
    scope.postMessage({ id, failure: `The answer could not be handed to the window (${(err as Error).message}); it may be nested too deeply to show. See the raw answer.` });
  }
};
