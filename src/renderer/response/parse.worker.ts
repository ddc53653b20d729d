/**
 * The parse worker: decodes, parses and normalizes large response bodies, and reads a Run's answer
 * itself, away from the window's thread, so a 100,000-record payload, a 100,000-model describe or a
 * 64 MiB body does not freeze typing or scrolling while it is read (worker-handler.ts).
 */
import type { DescribeSliceMessage } from './describe-slices.ts';
import type { ParseReply, WorkerRequest } from './parse-protocol.ts';
import { createWorkerHandler } from './worker-handler.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: ParseReply | DescribeSliceMessage, transfer?: Transferable[]): void;
};

// A dedicated worker's fetch has the page's origin and sends its cookies as the page's would.
const handle = createWorkerHandler(
  (message, transfer) => scope.postMessage(message, transfer ?? []),
  (input, init) => fetch(input, init),
);
scope.onmessage = (event) => handle(event.data);
