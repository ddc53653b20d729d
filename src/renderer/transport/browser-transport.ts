/**
 * The transport of browser mode: fetch from the page, so a remote server must allow its origin
 * (CORS). It reads an answer only up to its connection's answer limit (a 200 MB answer is cut off, not
 * held), and refuses redirects: a redirected query would take its body and credentials to another
 * address, and its answer would pass for the first server's.
 */
import {
  AnswerTooLargeError,
  CancelledError,
  DEFAULT_ANSWER_LIMIT_BYTES,
  DEFAULT_TIMEOUT_MS,
  NetworkError,
  type HttpRequestSpec,
  type HttpResult,
  type SendOptions,
  type Transport,
} from './transport.ts';
import { readCappedBytes, type Pacing } from '../../shared/capped-body.ts';
import type { AnswerLimits } from './answer-limits.ts';
import { currentPage, localAdminHeaders, type LocalAdminPage } from './local-admin-secret.ts';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Thrown when the server answered with a redirect, which the console does not follow. */
export class RedirectRefusedError extends NetworkError {
  constructor(url: string, status: number) {
    const origin = new URL(url).origin;
    super(
      `${origin} answered with a redirect${status ? ` (${status})` : ''}: the console does not follow redirects, so the query and its credentials went nowhere else. If the server has moved, point the connection at its new address.`,
    );
  }
}

/**
 * A 304 Not Modified: the console sends no cache validators, so a server that answers 304 sent no
 * answer to show (and it is not a redirect: nothing was moved).
 */
export class NotModifiedError extends NetworkError {
  constructor(url: string) {
    super(`${new URL(url).origin} answered 304 Not Modified, with no body: there is no answer to show. The console asked for a fresh answer, so the server (or a proxy before it) should not answer 304 to a query.`);
  }
}

const credentialsOf = (request: HttpRequestSpec): RequestCredentials => (request.withCredentials ? 'include' : request.connectionCredentials ? 'same-origin' : 'omit');

/**
 * `limits`: the connections' own answer limits; a request's `answerLimitBytes` wins over them. `page`:
 * where the local admin's page secret comes from (local-admin-secret.ts). `pacing`: how often reading
 * a body gives the thread back (the parse worker, which has nothing else to do, reads without pauses).
 */
export function createBrowserTransport(fetchImpl: FetchLike = (i, init) => fetch(i, init), limits?: Pick<AnswerLimits, 'of'>, page: () => LocalAdminPage | null = currentPage, pacing?: Pacing): Transport {
  /** The request as fetch sends it: the headers the page adds, and the answer limit that applies. */
  const prepare = (request: HttpRequestSpec): HttpRequestSpec => {
    // A request that sends cookies to the page's own origin carries the local admin's page secret
    // too (the cookie alone is anonymous); one to any other origin never does.
    const headers = credentialsOf(request) === 'omit' ? request.headers : { ...request.headers, ...localAdminHeaders(request.url, page()) };
    return { ...request, headers, answerLimitBytes: request.answerLimitBytes ?? limits?.of(request.connectionId) ?? DEFAULT_ANSWER_LIMIT_BYTES };
  };
  return {
    kind: 'browser',
    forWorker: prepare,
    async send(request: HttpRequestSpec, options: SendOptions = {}): Promise<HttpResult> {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      // Cancel aborts the fetch itself: the browser closes the connection and stops reading.
      const cancel = () => controller.abort();
      if (options.signal?.aborted) throw new CancelledError();
      options.signal?.addEventListener('abort', cancel, { once: true });
      const started = performance.now();
      try {
        const credentials = credentialsOf(request);
        const prepared = prepare(request);
        const response = await fetchImpl(request.url, {
          method: request.method,
          headers: prepared.headers,
          body: request.body,
          credentials,
          signal: controller.signal,
          redirect: 'manual',
        });
        // `manual` gives an opaque answer for any redirect (status 0); a status 3xx can come from a
        // fetch stand-in.
        if (response.status === 304) throw new NotModifiedError(request.url);
        if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) throw new RedirectRefusedError(request.url, response.status);
        const limit = prepared.answerLimitBytes!;
        let body: ArrayBuffer;
        try {
          // Past the limit the request itself is aborted too: the browser stops reading.
          const bytes = await readCappedBytes(response, limit, () => new AnswerTooLargeError(limit), () => controller.abort(), pacing);
          body = bytes.buffer as ArrayBuffer;
        } catch (err) {
          // The server did answer: a body that fails to decode (a gzip bomb, a broken encoding) is not "could not reach".
          if (err instanceof NetworkError || controller.signal.aborted || options.signal?.aborted) throw err;
          throw new NetworkError(
            `${new URL(request.url).origin} answered ${response.status}, but its body could not be read (${(err as Error).message}): it may be compressed wrongly or far larger than it declared. See the server's logs.`,
          );
        }
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
        if (err instanceof NetworkError) throw err;
        if (controller.signal.aborted) throw new NetworkError(`No answer from ${request.url} within ${Math.round((request.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s.`);
        throw new NetworkError(`Could not reach ${request.url} (${(err as Error).message}).`);
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', cancel);
      }
    },
  };
}
