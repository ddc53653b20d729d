/**
 * Decodes, parses and normalizes a large response body away from the window's thread, so a
 * 100,000-record payload does not freeze typing or scrolling while it is read.
 */
import { normalizeText } from './normalize-envelope.ts';
import type { ParseReply, ParseRequest } from './parse-protocol.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ParseRequest>) => void) | null;
  postMessage(message: ParseReply): void;
};

scope.onmessage = (event) => {
  const { id, buffer, httpStatus, hints } = event.data;
  try {
    const text = new TextDecoder().decode(buffer);
    scope.postMessage({ id, view: normalizeText(text, httpStatus, hints) });
  } catch (err) {
    scope.postMessage({ id, failure: (err as Error).message });
  }
};
