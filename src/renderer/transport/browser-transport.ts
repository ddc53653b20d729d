/** The transport of browser mode: fetch from the page, so a remote server must allow its origin (CORS). */
import { CancelledError, DEFAULT_TIMEOUT_MS, NetworkError, type HttpRequestSpec, type HttpResult, type SendOptions, type Transport } from './transport.ts';

type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export function createBrowserTransport(fetchImpl: FetchLike = (i, init) => fetch(i, init)): Transport {
  return {
    kind: 'browser',
    async send(request: HttpRequestSpec, options: SendOptions = {}): Promise<HttpResult> {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      // Cancel aborts the fetch itself: the browser closes the connection and stops reading.
      const cancel = () => controller.abort();
      if (options.signal?.aborted) throw new CancelledError();
      options.signal?.addEventListener('abort', cancel, { once: true });
      const started = performance.now();
      try {
        const response = await fetchImpl(request.url, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          credentials: request.withCredentials ? 'include' : request.connectionCredentials ? 'same-origin' : 'omit',
          signal: controller.signal,
        });
        const body = await response.arrayBuffer();
        const headers: Record<string, string> = {};
        response.headers.forEach((value, key) => {
          headers[key] = value;
        });
        return {
          status: response.status,
          statusText: response.statusText,
          headers,
          body,
          timeMs: performance.now() - started,
        };
      } catch (err) {
        if (options.signal?.aborted) throw new CancelledError();
        if (controller.signal.aborted) throw new NetworkError(`No answer from ${request.url} within ${Math.round((request.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s.`);
        throw new NetworkError(`Could not reach ${request.url} (${(err as Error).message}).`);
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', cancel);
      }
    },
  };
}
