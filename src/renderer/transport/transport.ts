/**
 * One interface for talking to a JQL server over HTTP. The Electron
 * implementation hands requests to main through the bridge; the browser one uses fetch. Everything
 * above this file (the JQL client, the stores, the features) is the same in both modes.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT';

export interface HttpRequestSpec {
  /** Cookies are kept per connection in Electron (one jar each). */
  connectionId: string;
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body?: string;
  /** Send cookies (session authentication) cross-origin. */
  withCredentials: boolean;
  /**
   * The connection's own credential goes with this request, held outside the page: main adds it in
   * the desktop app (its bearer token, its cookie jar); in browser mode it is the HttpOnly local
   * admin cookie, which the browser adds to same-origin requests, with the page's secret in a header
   * (local-admin-secret.ts). Absent: nothing beyond the cookies
   * `withCredentials` asks for, so "anyone" and other identities stay themselves.
   */
  connectionCredentials?: boolean;
  timeoutMs?: number;
  /** The largest answer read (default DEFAULT_ANSWER_LIMIT_BYTES); a larger one is cut off with a message. */
  answerLimitBytes?: number;
}

export interface HttpResult {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: ArrayBuffer;
  timeMs: number;
}

export interface SendOptions {
  /** Aborting it stops waiting for the answer; `send` then rejects with a CancelledError. */
  signal?: AbortSignal;
}

export interface Transport {
  readonly kind: 'electron' | 'browser';
  send(request: HttpRequestSpec, options?: SendOptions): Promise<HttpResult>;
  /**
   * Browser mode only: the request as this transport's fetch would send it (the page's headers added,
   * the answer limit fixed), for the parse worker to send itself with the same rules, so a large
   * answer is read off the window's thread (run-in-worker.ts). The result holds a credential's header:
   * it goes to the worker by message, never into a URL or a log.
   */
  forWorker?(request: HttpRequestSpec): HttpRequestSpec;
}

/** The user cancelled the request (the Cancel button, Escape). */
export class CancelledError extends Error {
  override readonly name = 'CancelledError';
  constructor() {
    super('Cancelled.');
  }
}

/** The server could not be reached at all (DNS, refused, CORS, timeout): there is no HTTP status. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/** A connection's answer limit when it sets none: 64 MiB (issue 21.5 and 22). */
export const DEFAULT_ANSWER_LIMIT_BYTES = 64 * 1024 * 1024;

/** The answer was larger than the limit: it was not read to the end and is not shown. */
export class AnswerTooLargeError extends NetworkError {
  constructor(limitBytes: number) {
    super(`The answer is larger than this connection's answer limit (${Math.round(limitBytes / 1024 / 1024)} MiB): the console stopped reading it and shows none of it. Ask for less (a filter, a smaller limit) or save it with another tool.`);
  }
}
