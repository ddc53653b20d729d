import type { SocketData } from '../../response/schema/stream-schema.ts';
import { localAdminProtocols } from '../../transport/local-admin-secret.ts';

export type { SocketData };

/**
 * The one socket shape the stream client needs, so it runs over a browser WebSocket, over whatever
 * main offers in Electron, or over a fake in tests. `connect` resolves once the socket is open.
 */
export interface StreamSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  /** Text frames as text; a binary frame only by its size (the boundary reports it). */
  onMessage(listener: (data: SocketData) => void): void;
  onClose(listener: (code: number, reason: string) => void): void;
}

export type ConnectStreamSocket = () => Promise<StreamSocket>;

/** `{base}/jql-streams` over ws(s), with `?token=` because a browser WebSocket cannot set headers. */
export function streamUrl(baseUrl: string, token: string | null): string {
  const url = new URL(`${baseUrl.trim().replace(/\/+$/, '')}/jql-streams`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : url.protocol === 'http:' ? 'ws:' : url.protocol;
  if (token) url.searchParams.set('token', token);
  return url.toString();
}

/** The members of WebSocket used here; tests pass a fake class. */
export interface WebSocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
}

/** The default socket offers the local admin's subprotocols to the page's own origin only (transport/local-admin-secret.ts). */
export function browserSocketConnector(url: string, make: (url: string) => WebSocketLike = (u) => new WebSocket(u, localAdminProtocols(u))): ConnectStreamSocket {
  return () =>
    new Promise<StreamSocket>((resolve, reject) => {
      const ws = make(url);
      let opened = false;
      const messageListeners: Array<(data: SocketData) => void> = [];
      const closeListeners: Array<(code: number, reason: string) => void> = [];
      ws.addEventListener('message', (event) => {
        const data: SocketData = typeof event.data === 'string' ? event.data : { binaryBytes: binarySize(event.data) };
        for (const l of messageListeners) l(data);
      });
      ws.addEventListener('close', (event) => {
        if (!opened) reject(new Error(`Could not open ${url.replace(/token=[^&]*/, 'token=…')} (close code ${event.code}).`));
        for (const l of closeListeners) l(event.code, event.reason);
      });
      ws.addEventListener('open', () => {
        opened = true;
        resolve({
          send: (data) => ws.send(data),
          close: (code, reason) => ws.close(code, reason),
          onMessage: (l) => void messageListeners.push(l),
          onClose: (l) => void closeListeners.push(l),
        });
      });
    });
}

function binarySize(data: unknown): number {
  if (data instanceof ArrayBuffer) return data.byteLength;
  // A socket in a worker hands binary frames on by their size.
  if (typeof data === 'object' && data !== null && 'binaryBytes' in data && typeof data.binaryBytes === 'number') return data.binaryBytes;
  if (typeof Blob !== 'undefined' && data instanceof Blob) return data.size;
  return 0;
}
