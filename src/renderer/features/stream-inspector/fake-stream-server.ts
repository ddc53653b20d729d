/**
 * A scripted stand-in for `/jql-streams` in unit tests: each connect() yields a FakeSocket whose sent
 * messages are recorded and to which the test pushes server messages or a close.
 */
import type { ConnectStreamSocket, StreamSocket } from './stream-socket.ts';

export class FakeSocket implements StreamSocket {
  sent: Array<Record<string, unknown>> = [];
  /** The messages as the text sent (a 64-bit id's digits are checked there). */
  texts: string[] = [];
  closed: { code?: number; reason?: string } | null = null;
  private messageListeners: Array<(data: string) => void> = [];
  private closeListeners: Array<(code: number, reason: string) => void> = [];

  send(data: string): void {
    this.texts.push(data);
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code?: number, reason?: string): void {
    this.closed = { code, reason };
  }
  onMessage(listener: (data: string) => void): void {
    this.messageListeners.push(listener);
  }
  onClose(listener: (code: number, reason: string) => void): void {
    this.closeListeners.push(listener);
  }
  /** Server -> client. */
  push(message: unknown): void {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    for (const l of this.messageListeners) l(text);
  }
  event(subscription: string, seq: number, event = 'created', record: unknown = { id: seq }, namespace = 'tickets.Ticket'): void {
    this.push({ type: 'event', subscription, event, namespace, seq, at: '2026-01-01T00:00:00Z', record });
  }
  /** The server (or the network) closes the socket. */
  drop(code = 1006, reason = ''): void {
    for (const l of this.closeListeners) l(code, reason);
  }
}

export class FakeStreamServer {
  sockets: FakeSocket[] = [];
  /** Set to make the next connects fail. */
  refuse = 0;

  readonly connect: ConnectStreamSocket = async () => {
    if (this.refuse > 0) {
      this.refuse--;
      throw new Error('connection refused');
    }
    const socket = new FakeSocket();
    this.sockets.push(socket);
    return socket;
  };

  get last(): FakeSocket {
    const socket = this.sockets.at(-1);
    if (!socket) throw new Error('no socket yet');
    return socket;
  }
}

/** Lets pending promise callbacks (the async connect) run; works under fake timers too. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
