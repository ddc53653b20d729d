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
 * `outstanding` counts the frames handed over and not yet written out by the kernel: the connection
 * closes a subscriber that falls too far behind (4008).
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

const due = new Set<FrameWriter>();
let scheduled = false;
let lastWrite = -Infinity;

function writeDue(): void {
  scheduled = false;
  lastWrite = performance.now();
  const writers = [...due];
  due.clear();
  for (const writer of writers) writer.flush();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  const wait = lastWrite + MIN_INTERVAL_MS - performance.now();
  if (wait > 1) setTimeout(writeDue, wait);
  else setImmediate(writeDue);
}

export class FrameWriter {
  private readonly socket: WebSocket;
  /** The upgraded TCP socket, when frames can be written to it as they are. */
  private readonly raw: Duplex | null;
  private readonly onWritten: () => void;
  private pending: Buffer[] = [];
  private count = 0;

  constructor(socket: WebSocket, raw: Duplex | null, onWritten: () => void) {
    this.socket = socket;
    this.raw = raw !== null && socket.extensions === '' ? raw : null;
    this.onWritten = onWritten;
  }

  /** Frames handed to this writer that the socket has not written out yet. */
  get outstanding(): number {
    return this.count;
  }

  write(frame: OutgoingFrame): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.count += 1;
    if (this.raw === null) {
      // As text: a Buffer would go out as a binary frame.
      this.socket.send(frame.payload.toString(), () => this.written(1));
      return;
    }
    this.pending.push(frame.wire);
    if (this.pending.length > 1) return;
    due.add(this);
    schedule();
  }

  /** Writes what is held now (before a close frame that must come after it, or at the end of the turn). */
  flush(): void {
    const frames = this.pending;
    if (frames.length === 0) return;
    this.pending = [];
    due.delete(this);
    const raw = this.raw as Duplex;
    if (this.socket.readyState !== this.socket.OPEN || raw.destroyed) {
      this.written(frames.length);
      return;
    }
    const last = frames.length - 1;
    // Corked, the writes below leave in one writev.
    if (last > 0) raw.cork();
    for (let i = 0; i < last; i++) raw.write(frames[i]);
    raw.write(frames[last], () => this.written(frames.length));
    if (last > 0) raw.uncork();
  }

  private written(frames: number): void {
    this.count -= frames;
    this.onWritten();
  }
}
