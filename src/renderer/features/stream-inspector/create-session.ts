/**
 * A StreamSession for one connection in browser mode: a WebSocket to `{base}/jql-streams` that signs
 * in with its first message (stream-auth.ts), never with the token in the URL. The desktop app
 * passes `bridgeSocketConnector` (a socket carried by main) to the StreamSession instead.
 */
import { browserSocketConnector, streamUrl, type WebSocketLike } from './stream-socket.ts';
import { withStreamAuth } from './stream-auth.ts';
import { StreamSession, type StreamSessionOptions } from './stream-session.ts';
import { defaultMakeSocket } from './worker-web-socket.ts';

export interface BrowserSessionOptions extends Omit<StreamSessionOptions, 'connect'> {
  baseUrl: string;
  /** The bearer token now, or null (session cookie or anonymous). */
  getToken: () => string | null;
  makeSocket?: (url: string) => WebSocketLike;
}

export function createStreamSession({ baseUrl, getToken, makeSocket, ...options }: BrowserSessionOptions): StreamSession {
  // The socket lives in a worker: a flood of frames reaches the window in batches (worker-web-socket.ts).
  return new StreamSession({ ...options, connect: withStreamAuth(browserSocketConnector(streamUrl(baseUrl, null), makeSocket ?? defaultMakeSocket), getToken) });
}
