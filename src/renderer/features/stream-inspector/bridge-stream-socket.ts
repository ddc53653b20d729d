/**
 * A `/jql-streams` socket carried by Electron main (`ws:*`), the only way the desktop app opens one:
 * the page's CSP allows no socket of its own, and main holds the connection's credential (bearer
 * token or cookie jar) and adds it itself. Whether the socket is signed in is read at each
 * (re)connect, so a sign-in or sign-out between two attempts is picked up. Main's events name the
 * socket; this connector keeps its own, and acknowledges what it delivered, so main reads on
 * (main pauses a socket whose messages the page does not take).
 */
import type { JqlBridge } from '../../../shared/bridge.ts';
import type { ConnectStreamSocket, StreamSocket } from './stream-socket.ts';

export type SocketBridge = Pick<JqlBridge, 'wsOpen' | 'wsSend' | 'wsClose' | 'wsAck' | 'onWsMessage' | 'onWsClosed'>;

export function bridgeSocketConnector(bridge: SocketBridge, connectionId: string, url: string, signedIn: () => boolean = () => true): ConnectStreamSocket {
  return async () => {
    const credentials = signedIn() ? 'connection' : 'omit';
    const messageListeners: Array<(data: string) => void> = [];
    const closeListeners: Array<(code: number, reason: string) => void> = [];
    let socketId: string | null = null;
    let closed = false;
    // Listening starts before the socket opens: nothing main sends right after opening is lost.
    const early: Array<{ socketId: string; data: string }> = [];
    const deliver = (data: string) => {
      for (const l of messageListeners) l(data);
      void bridge.wsAck(socketId!, data.length).catch(() => undefined);
    };
    const offMessage = bridge.onWsMessage((m) => {
      if (socketId === null) early.push(m);
      else if (m.socketId === socketId) deliver(m.data);
    });
    const offClosed = bridge.onWsClosed((c) => {
      if (c.socketId !== socketId || closed) return;
      closed = true;
      offMessage();
      offClosed();
      for (const l of closeListeners) l(c.code, c.reason);
    });
    try {
      socketId = (await bridge.wsOpen({ connectionId, url, credentials })).socketId;
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
        for (const m of early.splice(0)) {
          if (m.socketId !== id) continue;
          listener(m.data);
          void bridge.wsAck(id, m.data.length).catch(() => undefined);
        }
      },
      onClose: (listener) => void closeListeners.push(listener),
    };
    return socket;
  };
}
