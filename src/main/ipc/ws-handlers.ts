/** `ws:open|send|close|ack`: stream sockets that main holds for the page, with the connection's credential. */
import type { WsProxy } from '../ws-proxy.ts';
import type { Handlers } from './register.ts';

export function wsHandlers(sockets: Pick<WsProxy, 'open' | 'send' | 'close' | 'ack'>): Pick<Handlers, 'ws:open' | 'ws:send' | 'ws:close' | 'ws:ack'> {
  return {
    'ws:open': (request) => sockets.open(request),
    'ws:send': (socketId, data) => sockets.send(socketId, data),
    'ws:close': (socketId, code, reason) => sockets.close(socketId, code, reason),
    'ws:ack': (socketId, chars) => sockets.ack(socketId, chars),
  };
}
