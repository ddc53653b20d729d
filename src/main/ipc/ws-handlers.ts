/** `ws:open|send|close`: stream sockets that main holds for the page (session-cookie connections). */
import type { WsProxy } from '../ws-proxy.ts';
import type { Handlers } from './register.ts';

export function wsHandlers(sockets: Pick<WsProxy, 'open' | 'send' | 'close'>): Pick<Handlers, 'ws:open' | 'ws:send' | 'ws:close'> {
  return {
    'ws:open': (request) => sockets.open(request),
    'ws:send': (socketId, data) => sockets.send(socketId, data),
    'ws:close': (socketId, code, reason) => sockets.close(socketId, code, reason),
  };
}
