/** The transport of the desktop app: main performs the request (cookies per connection, no CORS). */
import type { JqlBridge } from '../../shared/bridge.ts';
import { NetworkError, type HttpRequestSpec, type HttpResult, type Transport } from './transport.ts';

export function createElectronTransport(bridge: Pick<JqlBridge, 'request'>): Transport {
  return {
    kind: 'electron',
    async send(request: HttpRequestSpec): Promise<HttpResult> {
      try {
        const res = await bridge.request({
          connectionId: request.connectionId,
          url: request.url,
          method: request.method,
          headers: request.headers,
          body: request.body,
          timeoutMs: request.timeoutMs,
        });
        // Copy into a fresh ArrayBuffer: the IPC view may be a slice of a larger buffer.
        const body = res.body.slice().buffer as ArrayBuffer;
        return { status: res.status, statusText: res.statusText, headers: res.headers, body, timeMs: res.timeMs };
      } catch (err) {
        // ipcRenderer.invoke wraps main's error: "Error invoking remote method 'http:request': Error: ..."
        const message = (err as Error).message.replace(/^Error invoking remote method '[^']+': (Error: )?/, '');
        throw new NetworkError(message);
      }
    },
  };
}
