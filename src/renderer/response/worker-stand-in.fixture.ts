/**
 * For tests: a parse worker stand-in that runs the real worker's handler (worker-handler.ts) with
 * `fetchImpl` as its fetch, hands each message over as its own structured clone in a later
 * microtask, and records every message that crosses, each way, with what it transfers.
 */
import type { DescribeSliceMessage } from './describe-slices.ts';
import type { ParseReply, WorkerRequest } from './parse-protocol.ts';
import type { WorkerLike } from './parse-response.ts';
import { createWorkerHandler } from './worker-handler.ts';
import type { FetchLike } from '../transport/browser-transport.ts';

export function workerWith(fetchImpl: FetchLike): { worker: WorkerLike; toWindow: Array<{ message: ParseReply | DescribeSliceMessage; transfer: Transferable[] }>; toWorker: WorkerRequest[] } {
  const listeners: Array<(e: MessageEvent<ParseReply | DescribeSliceMessage>) => void> = [];
  const toWindow: Array<{ message: ParseReply | DescribeSliceMessage; transfer: Transferable[] }> = [];
  const toWorker: WorkerRequest[] = [];
  const handle = createWorkerHandler((message, transfer = []) => {
    toWindow.push({ message, transfer });
    queueMicrotask(() => listeners.forEach((l) => l({ data: message } as MessageEvent<ParseReply>)));
  }, fetchImpl);
  const worker: WorkerLike = {
    postMessage(message) {
      toWorker.push(message);
      queueMicrotask(() => handle(message));
    },
    addEventListener(type: string, listener: never) {
      if (type === 'message') listeners.push(listener);
    },
  };
  return { worker, toWindow, toWorker };
}
