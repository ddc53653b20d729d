/**
 * Writes a stream connection's frames (frames.ts) to its socket. Frames due within one turn of the
 * event loop are held and written together when the turn ends (setImmediate, after the I/O of the
 * turn), and rounds of writes are at least MIN_INTERVAL_MS apart: one system call per socket however
 * many events committed meanwhile, instead of one per frame. The same frame buffer goes to every
 * socket of a view.
 *
 * The frames go straight to the TCP socket `ws` upgraded, behind whatever `ws` itself wrote there
 * (pings, a close frame) in the order of the calls. A socket that negotiated an extension
 * (permessage-deflate), or one given without its TCP socket, cannot take pre-built frames: its
 * messages go through `ws.send`, one by one.
 *
 * `outstanding` counts the frames handed over and not yet written out to the kernel: the connection
 * closes a subscriber that falls too far behind (4008). It is worked out when asked, from the bytes the
 * socket still holds (`writableLength`), not from a callback per write: a callback costs every socket
 * a closure and a tick of its own on each round (issue 14.1; with the allocations below, 12% of the
 * fan-out's CPU per delivery, measured side by side).
 * Only a round the kernel did not take at once queues an empty write behind it, whose callback says
 * when the socket has caught up (the connection's replay waits on that).
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { OutgoingFrame } from './frames.ts';

/**
 * The shortest time between two rounds of writes. A write to a socket costs about the same system
 * call for one frame as for ten, so when events come faster than this, frames wait (at most this
 * long) and leave together; at a slower pace every round goes out at the end of its turn.
 */
const MIN_INTERVAL_MS = 5;

/**
 * Writers holding frames for the next round, each once, in two arrays that take turns and keep their
 * capacity: a round of a thousand sockets allocates no array (issue 14.1: garbage collection was 7.6%
 * of the fan-out's CPU in a `perf` profile, against 2.3% for the bare broadcast).
 */
let due: Array<FrameWriter | null> = [];
let dueCount = 0;
let spare: Array<FrameWriter | null> = [];
let scheduled = false;
let lastWrite = -Infinity;

function writeDue(): void {
  scheduled = false;
  lastWrite = performance.now();
  const writers = due;
  const count = dueCount;
  due = spare;
  dueCount = 0;
  for (let i = 0; i < count; i++) {
    const writer = writers[i] as FrameWriter;
    writers[i] = null;
    writer.flush();
  }
  spare = writers;
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  const wait = lastWrite + MIN_INTERVAL_MS - performance.now();
  if (wait > 1) setTimeout(writeDue, wait);
  else setImmediate(writeDue);
}

/** Queued behind a round the kernel did not take at once: its callback runs once all before it left. */
const EMPTY = Buffer.alloc(0);

export class FrameWriter {
  private readonly socket: WebSocket;
  /** The upgraded TCP socket, when frames can be written to it as they are. */
  private readonly raw: Duplex | null;
  private readonly onWritten: () => void;
  /** The round's frames: the first alone (most rounds have one), any more after it. */
  private first: Buffer | null = null;
  private readonly more: Buffer[] = [];
  private queued = false;
  /**
   * Byte lengths of the frames handed to the raw socket that it may still hold, oldest first (from
   * `head`), and their sum. Emptied whenever the socket is seen holding nothing.
   */
  private readonly inSocket: number[] = [];
  private head = 0;
  private inSocketBytes = 0;
  /** An empty write with `caughtUp` as its callback waits behind frames the socket holds. */
  private watching = false;
  /** Messages handed to `ws.send` (a socket with an extension) not yet written. */
  private viaSend = 0;
  private readonly caughtUp = (): void => {
    this.watching = false;
    // Frames written after the empty one may still be held: watch again behind them.
    if (this.holding()) this.watch();
    this.onWritten();
  };

  constructor(socket: WebSocket, raw: Duplex | null, onWritten: () => void) {
    this.socket = socket;
    this.raw = raw !== null && socket.extensions === '' ? raw : null;
    this.onWritten = onWritten;
  }

  /** Frames handed to this writer that the socket has not written out yet. */
  get outstanding(): number {
    if (this.raw === null) return this.viaSend;
    return (this.first === null ? 0 : 1 + this.more.length) + this.held();
  }

  write(frame: OutgoingFrame): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.raw === null) {
      this.viaSend += 1;
      // As text: a Buffer would go out as a binary frame.
      this.socket.send(frame.payload.toString(), () => {
        this.viaSend -= 1;
        this.onWritten();
      });
      return;
    }
    if (this.first === null) this.first = frame.wire;
    else this.more.push(frame.wire);
    if (this.queued) return;
    this.queued = true;
    due[dueCount++] = this;
    schedule();
  }

  /** Writes what is held now (before a close frame that must come after it, or at the end of the turn). */
  flush(): void {
    this.queued = false;
    const first = this.first;
    if (first === null) return;
    this.first = null;
    const raw = this.raw as Duplex;
    const { more } = this;
    if (this.socket.readyState !== this.socket.OPEN || raw.destroyed) {
      more.length = 0;
      this.onWritten();
      return;
    }
    if (more.length === 0) {
      raw.write(first);
    } else {
      // Corked, the writes leave in one writev.
      raw.cork();
      raw.write(first);
      for (const frame of more) raw.write(frame);
      raw.uncork();
    }
    if (raw.writableLength === 0) {
      // The kernel took everything (the usual case): nothing to keep track of.
      more.length = 0;
      this.holding();
      this.onWritten();
      return;
    }
    this.track(first);
    for (const frame of more) this.track(frame);
    more.length = 0;
    if (!this.watching) this.watch();
  }

  private track(frame: Buffer): void {
    this.inSocket.push(frame.length);
    this.inSocketBytes += frame.length;
  }

  /** Whether the socket still holds bytes (none: everything handed to it reached the kernel). */
  private holding(): boolean {
    const raw = this.raw as Duplex;
    if (raw.writableLength > 0 && !raw.destroyed) return true;
    if (this.inSocket.length > 0) this.forget();
    return false;
  }

  /** How many frames handed to the socket it still holds, a frame partly written counted whole. */
  private held(): number {
    // Nothing tracked: every round so far left at once.
    if (this.head === this.inSocket.length || !this.holding()) return 0;
    const { inSocket } = this;
    // The socket writes in order: what left is the oldest frames' bytes.
    let left = this.inSocketBytes - (this.raw as Duplex).writableLength;
    while (this.head < inSocket.length && (inSocket[this.head] as number) <= left) {
      const bytes = inSocket[this.head] as number;
      left -= bytes;
      this.inSocketBytes -= bytes;
      this.head += 1;
    }
    const held = inSocket.length - this.head;
    if (held === 0) this.forget();
    return held;
  }

  private forget(): void {
    this.inSocket.length = 0;
    this.head = 0;
    this.inSocketBytes = 0;
  }

  private watch(): void {
    this.watching = true;
    (this.raw as Duplex).write(EMPTY, this.caughtUp);
  }
}
