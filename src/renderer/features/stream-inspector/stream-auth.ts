/**
 * Signs a stream socket in with its first message, `{"type": "auth", "token": …}` (docs/protocol.md "Streams"),
 * instead of `?token=` in the URL: a URL ends up in server logs, proxies, and the browser's own
 * console ("WebSocket connection to 'ws://…?token=…' failed") whenever the server is down.
 *
 * The wrapped connector resolves once the server has answered: `authenticated`, or an error with id
 * null (a bad or expired token; an older server that does not know the message). An error is passed
 * on to the client like any other message, so the inspector shows it, and the socket stays open
 * with the server treating the caller as anonymous or unauthenticated, as the protocol says.
 */
import { readStreamFrame } from '../../response/schema/stream-schema.ts';
import type { ConnectStreamSocket, SocketData, StreamSocket } from './stream-socket.ts';

export const AUTH_TIMEOUT_MS = 10_000;

type AuthReply = 'authenticated' | 'refused' | 'other';

function readReply(data: SocketData): AuthReply {
  const frame = readStreamFrame(data);
  if (frame.type === 'authenticated') return 'authenticated';
  if (frame.type === 'error' && frame.id === null) return 'refused';
  return 'other';
}

export function withStreamAuth(connect: ConnectStreamSocket, getToken: () => string | null, timeoutMs = AUTH_TIMEOUT_MS): ConnectStreamSocket {
  return async () => {
    // Read at each (re)connect, so a sign-in between two attempts is picked up.
    const token = getToken();
    const socket = await connect();
    if (!token) return socket;
    return new Promise<StreamSocket>((resolve, reject) => {
      const messageListeners: Array<(data: SocketData) => void> = [];
      const closeListeners: Array<(code: number, reason: string) => void> = [];
      // Messages that arrive before the client listens (the refusal, anything after it) wait here.
      const held: SocketData[] = [];
      let settled = false;
      const deliver = (data: SocketData) => {
        if (messageListeners.length === 0) held.push(data);
        else for (const l of messageListeners) l(data);
      };
      const signedIn: StreamSocket = {
        send: (data) => socket.send(data),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (listener) => {
          messageListeners.push(listener);
          for (const data of held.splice(0)) listener(data);
        },
        onClose: (listener) => void closeListeners.push(listener),
      };
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      const timer = setTimeout(
        () =>
          settle(() => {
            socket.close(1000, 'no answer to auth');
            reject(new Error(`The server did not answer the stream sign-in within ${Math.round(timeoutMs / 1000)} s.`));
          }),
        timeoutMs,
      );
      socket.onMessage((data) => {
        if (settled) return deliver(data);
        const reply = readReply(data);
        if (reply === 'other') return void held.push(data);
        settle(() => resolve(signedIn));
        if (reply === 'refused') deliver(data);
      });
      socket.onClose((code, reason) => {
        if (!settled) settle(() => reject(new Error(`The stream closed before signing in (close code ${code}).`)));
        else for (const l of closeListeners) l(code, reason);
      });
      socket.send(JSON.stringify({ type: 'auth', token }));
    });
  };
}
