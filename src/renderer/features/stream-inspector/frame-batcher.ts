/**
 * Keeps a flood of stream frames from taking the window: frames are queued as they arrive (a push,
 * nothing more) and handed on in slices of at most `budgetMs` per animation frame, so clicks and
 * typing get the thread between slices. When the queue grows past what the page can work off
 * (`maxBacklogFrames` or `maxBacklogBytes`), ingestion pauses: event frames are counted and
 * skipped until the queue is empty again, control frames (subscribed, errors) still pass. The
 * session shows the count; the events skipped are not in the log.
 */
import type { SocketData, StreamSocket } from './stream-socket.ts';

export interface FrameBatchOptions {
  /** Runs `callback` at the next frame (default: requestAnimationFrame, or a timer when hidden). */
  schedule?: (callback: () => void) => void;
  now?: () => number;
  budgetMs?: number;
  maxBacklogFrames?: number;
  maxBacklogBytes?: number;
  /** Told when skipping starts (`skipping` true) and when the queue is worked off again. */
  onSkip?: (state: { skipping: boolean; skipped: number }) => void;
}

const defaultSchedule = (callback: () => void): void => {
  const visible = typeof document === 'undefined' || document.visibilityState === 'visible';
  if (visible && typeof requestAnimationFrame === 'function') requestAnimationFrame(() => callback());
  else setTimeout(callback, 50);
};

const sizeOf = (data: SocketData) => (typeof data === 'string' ? data.length : data.binaryBytes);
/** An event frame, told from its head without parsing it. */
const isEvent = (data: SocketData) => typeof data === 'string' && /"type"\s*:\s*"event"/.test(data.slice(0, 256));

export function batchFrames(socket: StreamSocket, options: FrameBatchOptions = {}): StreamSocket {
  const schedule = options.schedule ?? defaultSchedule;
  const now = options.now ?? (() => performance.now());
  // A small slice per frame: during a flood, input comes first and events are skipped (counted).
  const budget = options.budgetMs ?? 5;
  const maxFrames = options.maxBacklogFrames ?? 10_000;
  const maxBytes = options.maxBacklogBytes ?? 32 * 1024 * 1024;
  const listeners: Array<(data: SocketData) => void> = [];
  let queue: SocketData[] = [];
  let head = 0;
  let queuedBytes = 0;
  let scheduled = false;
  let skipping = false;
  let skipped = 0;
  let closed = false;

  const drain = () => {
    scheduled = false;
    if (closed) return;
    const started = now();
    while (head < queue.length && now() - started < budget) {
      const data = queue[head]!;
      queue[head++] = '';
      queuedBytes -= sizeOf(data);
      for (const l of listeners) l(data);
    }
    if (head < queue.length) {
      // Drop what was handed on, now and then, so the array does not grow for ever.
      if (head > 4096) {
        queue = queue.slice(head);
        head = 0;
      }
      scheduled = true;
      schedule(drain);
      return;
    }
    queue = [];
    head = 0;
    queuedBytes = 0;
    if (skipping) {
      skipping = false;
      options.onSkip?.({ skipping: false, skipped });
    }
  };

  socket.onMessage((data) => {
    if (closed) return;
    if (skipping && isEvent(data)) {
      skipped++;
      return;
    }
    queue.push(data);
    queuedBytes += sizeOf(data);
    if (!skipping && (queue.length - head > maxFrames || queuedBytes > maxBytes)) {
      skipping = true;
      options.onSkip?.({ skipping: true, skipped });
    }
    if (!scheduled) {
      scheduled = true;
      schedule(drain);
    }
  });

  return {
    send: (data) => socket.send(data),
    close: (code, reason) => socket.close(code, reason),
    onMessage: (listener) => void listeners.push(listener),
    onClose: (listener) =>
      socket.onClose((code, reason) => {
        // What is still queued is not handed on: the client resumes from the last event it took.
        closed = true;
        queue = [];
        listener(code, reason);
      }),
  };
}
