/**
 * The source server as the clone sees it: JQL over HTTP with a bearer token, nothing else. Every
 * request is counted (the manifest and the tests read the count), a 429 is waited out for as long as
 * its Retry-After says instead of retried at once, and a cancel stops both a request and a wait.
 * Credentials go only to the source's own origin, and no message here ever holds one.
 */
import { parseJsonKeepingNumbers, stringifyKeepingNumbers } from '../../shared/big-number.ts';
import type { JqlError, JsonValue } from '../../shared/protocol.ts';
import { tooDeep } from '../../shared/json-depth.ts';
import { withoutCredentials } from '../remote/url-text.ts';
import { AnswerTooLargeError, DEFAULT_MAX_ANSWER_BYTES, DEFAULT_MAX_RATE_LIMIT_WAIT_S, DEFAULT_REQUEST_TIMEOUT_S, readCappedText } from '../remote/answer-limits.ts';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface RemoteOptions {
  /** Origin plus base path, e.g. `https://support.example/api`. */
  baseUrl: string;
  token?: string | null;
  fetch?: FetchLike;
  signal?: AbortSignal;
  /** Told before each wait on a 429, with the wait in ms (progress shows it). */
  onRateLimited?: (waitMs: number) => void;
  /** Rate-limited answers waited out for one request before giving up. */
  maxRateLimitWaits?: number;
  /** Longest single wait; a Retry-After beyond it is refused rather than slept through. */
  maxWaitMs?: number;
  /** All waits on 429s together, over every request of this source (default 300 s). */
  maxTotalWaitMs?: number;
  /** One request, from sending to the last byte of its answer (default 60 s). */
  timeoutMs?: number;
  /** Bytes of one JQL answer read at most (default 80 MiB). */
  maxAnswerBytes?: number;
}

export interface RemoteAnswer {
  status: number;
  payload: JsonValue;
  extras: Record<string, JsonValue> | null;
  errors: JqlError[] | null;
}

/** The source answered with a JQL error (or no JQL answer at all). */
export class RemoteError extends Error {
  override readonly name = 'RemoteError';
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export class CloneCancelledError extends Error {
  override readonly name = 'CloneCancelledError';
  constructor() {
    super('The clone was cancelled.');
  }
}

const DEFAULT_WAITS = 8;
const DEFAULT_MAX_WAIT_MS = 5 * 60_000;

export class RemoteServer {
  readonly baseUrl: string;
  readonly origin: string;
  /** HTTP requests made so far (POST /jql and file downloads). */
  requests = 0;
  /** Time spent waiting out 429s so far, against `maxTotalWaitMs`. */
  private waitedMs = 0;
  private token: string | null;
  private readonly fetchImpl: FetchLike;
  private readonly options: RemoteOptions;

  constructor(options: RemoteOptions) {
    this.baseUrl = checkBaseUrl(options.baseUrl);
    this.origin = new URL(this.baseUrl).origin;
    this.token = options.token ?? null;
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.options = options;
  }

  /** Signs the following requests with this bearer token (after a login). */
  useToken(token: string | null): void {
    this.token = token;
  }

  /** POSTs a JQL document; the answer's envelope, or a RemoteError for an answer that is no envelope. */
  async post(document: Record<string, JsonValue>): Promise<RemoteAnswer> {
    const response = await this.send(`${this.baseUrl}/jql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...this.authorization() },
      // A 64-bit id of the query's filter goes as its digits (shared/big-number.ts).
      body: stringifyKeepingNumbers(document),
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      // Followed by hand, never automatically: a redirect must not take the credentials elsewhere.
      const location = response.headers.get('location');
      throw new RemoteError(response.status, 'redirected', `${this.baseUrl}/jql redirects${location ? ` to ${location}` : ''}; give the server's final URL instead`);
    }
    const text = await this.readBody(response, `${this.baseUrl}/jql`);
    const deep = tooDeep(text, `the answer of ${this.baseUrl}/jql`);
    if (deep !== null) throw new RemoteError(response.status, 'invalid_answer', deep);
    let body: unknown;
    try {
      // An id a double cannot hold keeps its digits, so a record the copy cannot hold is named as sent.
      body = parseJsonKeepingNumbers(text);
    } catch {
      throw new RemoteError(response.status, 'invalid_answer', `${this.baseUrl}/jql answered ${response.status} with something that is not JSON`);
    }
    return readEnvelope(response.status, body, this.baseUrl);
  }

  /** The answer to `system.Schema.describe`, or a RemoteError. */
  async describe(): Promise<JsonValue> {
    const answer = await this.post({ __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } });
    throwIfFailed(answer, 'system.Schema.describe');
    return answer.payload;
  }

  /**
   * GETs a file URL of an answer. A URL on another origin than the source's gets no credentials and
   * is refused: a file value's `url` is a path on the server's origin (docs/protocol.md "File URLs").
   */
  async download(url: string): Promise<Response> {
    const target = new URL(url, `${this.origin}/`);
    if (target.origin !== this.origin) throw new RemoteError(0, 'other_origin', `A file URL points at another server (${target.origin}); it was not fetched`);
    const response = await this.send(target.href, { method: 'GET', headers: this.authorization() });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new RemoteError(response.status, 'download_failed', `The file answered ${response.status}`);
    }
    return response;
  }

  /** The answer's text within the byte cap and the request's deadline, or one RemoteError saying which was passed. */
  private async readBody(response: Response, where: string): Promise<string> {
    const maxBytes = this.options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    try {
      return await readCappedText(response, maxBytes);
    } catch (error) {
      if (error instanceof AnswerTooLargeError) throw new RemoteError(response.status, 'answer_too_large', `${where}: ${error.message}`);
      this.cancelIfAsked();
      if (isTimeout(error)) throw this.timedOut(where);
      throw new RemoteError(response.status, 'unreachable', `${where}: the answer broke off (${(error as Error).message})`);
    }
  }

  private timedOut(where: string): RemoteError {
    return new RemoteError(0, 'timeout', `${where}: no answer within ${Math.round(this.timeoutMs() / 1000)} s`);
  }

  private timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_S * 1000;
  }

  private authorization(): Record<string, string> {
    return this.token ? { authorization: `Bearer ${this.token}` } : {};
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    const maxWaits = this.options.maxRateLimitWaits ?? DEFAULT_WAITS;
    for (let waits = 0; ; waits += 1) {
      this.cancelIfAsked();
      this.requests += 1;
      let response: Response;
      // One deadline for the whole request: connecting, the headers and (read by the caller under the
      // same signal) every byte of the answer. A source that drips or stays silent ends here.
      const deadline = AbortSignal.timeout(this.timeoutMs());
      const signal = this.options.signal ? AbortSignal.any([this.options.signal, deadline]) : deadline;
      try {
        response = await this.fetchImpl(url, { ...init, signal, redirect: 'manual' });
      } catch (error) {
        this.cancelIfAsked();
        if (deadline.aborted) throw this.timedOut(url);
        throw new RemoteError(0, 'unreachable', `Could not reach ${this.origin} (${(error as Error).message})`);
      }
      if (response.status !== 429) return response;
      await response.body?.cancel().catch(() => undefined);
      const waitMs = retryAfterMs(response.headers.get('retry-after'), waits);
      if (waits >= maxWaits) throw new RemoteError(429, 'rate_limited', `${this.origin} kept answering 429 (rate limited) after ${maxWaits} waits; try again later`);
      if (waitMs > (this.options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS)) {
        throw new RemoteError(429, 'rate_limited', `${this.origin} asks to wait ${Math.ceil(waitMs / 1000)} s (rate limited); try again later`);
      }
      const maxTotalMs = this.options.maxTotalWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_S * 1000;
      if (this.waitedMs + waitMs > maxTotalMs) {
        throw new RemoteError(429, 'rate_limited', `${this.origin} kept rate limiting: waiting ${Math.ceil(waitMs / 1000)} s more would pass the ${Math.round(maxTotalMs / 1000)} s allowed for all waits; try again later`);
      }
      this.waitedMs += waitMs;
      this.options.onRateLimited?.(waitMs);
      await sleep(waitMs, this.options.signal);
    }
  }

  private cancelIfAsked(): void {
    if (this.options.signal?.aborted) throw new CloneCancelledError();
  }
}

/** Throws the answer's first error as a RemoteError naming what was asked. */
export function throwIfFailed(answer: RemoteAnswer, what: string): void {
  if (!answer.errors || answer.errors.length === 0) return;
  const first = answer.errors[0] as JqlError;
  throw new RemoteError(answer.status, first.code, `${what}: ${first.code}: ${first.message}`);
}

/** The base URL as given, checked: http(s), no credentials in it, no query or fragment. */
export function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new RemoteError(0, 'invalid_url', `"${withoutCredentials(raw)}" is not a URL (e.g. https://support.example/api)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RemoteError(0, 'invalid_url', `${url.protocol} URLs are not JQL servers; use http: or https:`);
  if (url.username || url.password) throw new RemoteError(0, 'invalid_url', 'The URL holds credentials: give them on standard input (--password-stdin, --token-stdin), never in the URL');
  if (url.search || url.hash) throw new RemoteError(0, 'invalid_url', 'The URL is the server\'s base (origin and base path), without a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Retry-After in seconds or as an HTTP date; without one, 1 s doubling per wait. */
export function retryAfterMs(header: string | null, waits: number, now: number = Date.now()): number {
  if (header !== null && /^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = header === null ? Number.NaN : Date.parse(header);
  if (!Number.isNaN(date)) return Math.max(0, date - now);
  return Math.min(60_000, 1000 * 2 ** waits);
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CloneCancelledError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CloneCancelledError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Either envelope shape (docs/protocol.md "The envelope", "The flat shape") into one; anything else is a RemoteError. */
function readEnvelope(status: number, body: unknown, where: string): RemoteAnswer {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new RemoteError(status, 'invalid_answer', `${where} answered ${status} without a JQL envelope`);
  const b = body as Record<string, unknown>;
  if ('__payload__' in b || '__errors__' in b) {
    return { status, payload: (b.__payload__ ?? null) as JsonValue, extras: extrasOf(b.__extras__), errors: errorsOf(b.__errors__) };
  }
  if ('status' in b && ('data' in b || 'errors' in b)) {
    return { status, payload: (b.data ?? null) as JsonValue, extras: extrasOf(b.extras), errors: errorsOf(b.errors) };
  }
  throw new RemoteError(status, 'invalid_answer', `${where} answered ${status} without a JQL envelope`);
}

function extrasOf(value: unknown): Record<string, JsonValue> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, JsonValue>) : null;
}

function errorsOf(value: unknown): JqlError[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  return value.map((e) => {
    const error = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
    return { code: typeof error.code === 'string' ? error.code : 'internal_error', message: typeof error.message === 'string' ? error.message : 'The server gave no message' } as JqlError;
  });
}
