/**
 * A `/jql-streams` socket carried by Electron main (`ws:*`), the only way the desktop app opens one:
 * the page's CSP allows no socket of its own, and a session cookie lives in main's per-connection
 * jar. A token connection's bearer token is read at each (re)connect, so a sign-in between two
 * attempts is picked up. Main's events name the socket; this connector keeps its own.
 */
import type { JqlBridge } from '../../../shared/bridge.ts';
import type { ConnectStreamSocket, StreamSocket } from './stream-socket.ts';

export type SocketBridge = Pick<JqlBridge, 'wsOpen' | 'wsSend' | 'wsClose' | 'onWsMessage' | 'onWsClosed'>;

export function bridgeSocketConnector(bridge: SocketBridge, connectionId: string, url: string, getAuthorization: () => string | null = () => null): ConnectStreamSocket {
  return async () => {
    const authorization = getAuthorization();
    const messageListeners: Array<(data: string) => void> = [];
    const closeListeners: Array<(code: number, reason: string) => void> = [];
    let socketId: string | null = null;
    let closed = false;
    // Listening starts before the socket opens: nothing main sends right after opening is lost.
    const early: Array<{ socketId: string; data: string }> = [];
    const offMessage = bridge.onWsMessage((m) => {
      if (socketId === null) early.push(m);
      else if (m.socketId === socketId) for (const l of messageListeners) l(m.data);
    });
    const offClosed = bridge.onWsClosed((c) => {
      if (c.socketId !== socketId || closed) return;
      closed = true;
      offMessage();
      offClosed();
      for (const l of closeListeners) l(c.code, c.reason);
    });
    try {
      socketId = (await bridge.wsOpen({ connectionId, url, ...(authorization ? { authorization } : {}) })).socketId;
    } catch (err) {
      offMessage();
      offClosed();
      throw new Error(String((err as Error).message).replace(/^Error invoking remote method '[^']+': (Error: )?/, ''));
    }
    const id = socketId;
    const socket: StreamSocket = {
      send: (data) => void bridge.wsSend(id, data).catch(() => undefined),
      close: (code = 1000, reason = '') => void bridge.wsClose(id, code, reason).catch(() => undefined),
      onMessage: (listener) => {
        messageListeners.push(listener);
        // Deliver what arrived before anyone listened, in order.
        for (const m of early.splice(0)) if (m.socketId === id) listener(m.data);
      },
      onClose: (listener) => void closeListeners.push(listener),
    };
    return socket;
  };
}
