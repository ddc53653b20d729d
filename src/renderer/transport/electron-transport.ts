/**
 * The transport of the desktop app: main performs the request (cookies per connection, no CORS) and
 * adds the connection's credential itself when the request asks for it (issue 21.3).
 */
import type { JqlBridge } from '../../shared/bridge.ts';
import { CancelledError, NetworkError, type HttpRequestSpec, type HttpResult, type SendOptions, type Transport } from './transport.ts';

export function createElectronTransport(bridge: Pick<JqlBridge, 'request'>): Transport {
  return {
    kind: 'electron',
    async send(request: HttpRequestSpec, options: SendOptions = {}): Promise<HttpResult> {
      // Main's request has no cancel channel: Cancel stops waiting, and its answer is dropped.
      const signal = options.signal;
      if (signal?.aborted) throw new CancelledError();
      const cancelled = new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(new CancelledError()), { once: true }));
      cancelled.catch(() => undefined);
      try {
        const sent = bridge.request({
          connectionId: request.connectionId,
          url: request.url,
          method: request.method,
          headers: request.headers,
          body: request.body,
          timeoutMs: request.timeoutMs,
          credentials: request.connectionCredentials || request.withCredentials ? 'connection' : 'omit',
        });
        const res = await (signal ? Promise.race([sent, cancelled]) : sent);
        // Copy into a fresh ArrayBuffer: the IPC view may be a slice of a larger buffer.
        const body = res.body.slice().buffer as ArrayBuffer;
        return { status: res.status, statusText: res.statusText, headers: res.headers, body, timeMs: res.timeMs };
      } catch (err) {
        if (err instanceof CancelledError) throw err;
        // ipcRenderer.invoke wraps main's error: "Error invoking remote method 'http:request': Error: ..."
        const message = (err as Error).message.replace(/^Error invoking remote method '[^']+': (Error: )?/, '');
        throw new NetworkError(message);
      }
    },
  };
}
