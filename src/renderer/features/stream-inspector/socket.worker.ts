/**
 * A `/jql-streams` WebSocket held by a worker, so that a flood of frames (50,000 a second) costs
 * the window one message per FLUSH_MS instead of one task per frame: the window's own thread stays
 * free for typing and clicks. Frames are handed on in order, in batches; a binary frame by its
 * size only (the boundary reports it). Protocol with worker-web-socket.ts.
 */
import type { SocketData } from '../../response/schema/stream-schema.ts';
import type { SocketWorkerCommand, SocketWorkerEvent } from './worker-web-socket.ts';

const FLUSH_MS = 50;

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<SocketWorkerCommand>) => void) | null;
  postMessage(message: SocketWorkerEvent): void;
};

let socket: WebSocket | null = null;
let pending: SocketData[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;

function flush(): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  if (pending.length === 0) return;
  scope.postMessage({ type: 'batch', frames: pending });
  pending = [];
}

scope.onmessage = (event) => {
  const command = event.data;
  if (command.type === 'open') {
    // The page read the protocols (the local admin's secret for its own origin): a worker has no localStorage.
    const ws = new WebSocket(command.url, command.protocols);
    ws.binaryType = 'arraybuffer';
    socket = ws;
    ws.addEventListener('open', () => scope.postMessage({ type: 'open' }));
    ws.addEventListener('error', () => scope.postMessage({ type: 'error' }));
    ws.addEventListener('message', (e: MessageEvent<unknown>) => {
      pending.push(typeof e.data === 'string' ? e.data : { binaryBytes: e.data instanceof ArrayBuffer ? e.data.byteLength : 0 });
      timer ??= setTimeout(flush, FLUSH_MS);
    });
    ws.addEventListener('close', (e) => {
      flush();
      scope.postMessage({ type: 'close', code: e.code, reason: e.reason });
    });
  } else if (command.type === 'send') socket?.send(command.data);
  else if (command.type === 'close') socket?.close(command.code, command.reason);
};
