/**
 * A WebSocketLike whose socket lives in a worker (socket.worker.ts): frames arrive in batches, one
 * window task per batch, and are handed to the listeners one by one, in order. Used by browser-mode
 * stream sessions; where no worker can be made, the page's own WebSocket is used instead.
 */
import type { SocketData } from '../../response/schema/stream-schema.ts';
import { localAdminProtocols } from '../../transport/local-admin-secret.ts';
import type { WebSocketLike } from './stream-socket.ts';

/** `protocols`: the subprotocols to offer (a worker has no localStorage: the page reads the secret). */
export type SocketWorkerCommand = { type: 'open'; url: string; protocols: string[] } | { type: 'send'; data: string } | { type: 'close'; code?: number; reason?: string };
export type SocketWorkerEvent = { type: 'open' } | { type: 'error' } | { type: 'close'; code: number; reason: string } | { type: 'batch'; frames: SocketData[] };

type Listener = (event: never) => void;

export function workerWebSocket(
  url: string,
  makeWorker: () => Worker = () => new Worker(new URL('./socket.worker.ts', import.meta.url), { type: 'module', name: 'jql-stream-socket' }),
  protocols: string[] = localAdminProtocols(url),
): WebSocketLike {
  const worker = makeWorker();
  const listeners: Record<string, Listener[]> = { open: [], error: [], message: [], close: [] };
  const fire = (type: string, event: unknown) => {
    for (const l of listeners[type] ?? []) (l as (e: unknown) => void)(event);
  };
  worker.onmessage = (e: MessageEvent<SocketWorkerEvent>) => {
    const m = e.data;
    if (m.type === 'batch') for (const data of m.frames) fire('message', { data });
    else if (m.type === 'close') {
      fire('close', { code: m.code, reason: m.reason });
      worker.terminate();
    } else fire(m.type, {});
  };
  worker.onerror = () => {
    fire('close', { code: 1006, reason: 'the socket worker stopped' });
    worker.terminate();
  };
  const post = (command: SocketWorkerCommand) => worker.postMessage(command);
  post({ type: 'open', url, protocols });
  return {
    send: (data) => post({ type: 'send', data }),
    close: (code, reason) => post({ type: 'close', ...(code !== undefined ? { code } : {}), ...(reason !== undefined ? { reason } : {}) }),
    addEventListener: ((type: string, listener: Listener) => void (listeners[type] ??= []).push(listener)) as WebSocketLike['addEventListener'],
  };
}

/**
 * The worker-backed socket where workers exist, else the page's own WebSocket. Either offers the local
 * admin's subprotocols to the page's own origin only (transport/local-admin-secret.ts).
 */
export function defaultMakeSocket(url: string): WebSocketLike {
  const protocols = localAdminProtocols(url);
  if (typeof Worker === 'function') {
    try {
      return workerWebSocket(url, undefined, protocols);
    } catch {
      // A CSP without workers: the page's own socket.
    }
  }
  return new WebSocket(url, protocols);
}
