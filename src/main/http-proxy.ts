/**
 * Performs the renderer's HTTP requests to JQL servers from main (Electron's network stack, one
 * cookie jar per connection), so remote servers need no CORS and session cookies work as they do
 * for any client. The request is validated here because the renderer is not trusted.
 */
import { PROXY_METHODS, type ProxyMethod, type ProxyRequest, type ProxyResponse } from '../shared/bridge.ts';

export type FetchFn = (url: string, init: RequestInit) => Promise<Response>;

const MAX_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_TIMEOUT_MS = 60_000;
const CONNECTION_ID = /^[A-Za-z0-9_-]{1,64}$/;

export class ProxyRequestError extends Error {
  override readonly name = 'ProxyRequestError';
}

/** A URL main may reach for the page: one of the given schemes, no credentials in it. */
export function validateUrl(input: unknown, schemes: readonly string[]): URL {
  if (typeof input !== 'string') throw new ProxyRequestError('The URL must be a string.');
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new ProxyRequestError(`Not a URL: ${input}`);
  }
  if (!schemes.includes(url.protocol)) throw new ProxyRequestError(`Only ${schemes.map((s) => s.replace(/:$/, '')).join(' and ')} URLs are allowed, not ${url.protocol}`);
  if (url.username || url.password) throw new ProxyRequestError('Put credentials in the connection, not in the URL.');
  return url;
}

export function validateConnectionId(input: unknown): string {
  if (typeof input !== 'string' || !CONNECTION_ID.test(input)) throw new ProxyRequestError('Invalid connection id.');
  return input;
}

/** Header names are tokens and values hold no line breaks (no header injection). */
export function validateHeaders(input: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (input === undefined) return headers;
  if (typeof input !== 'object' || input === null) throw new ProxyRequestError('Headers must be an object.');
  for (const [name, value] of Object.entries(input)) {
    if (typeof value !== 'string' || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name) || /[\r\n]/.test(value)) {
      throw new ProxyRequestError(`Invalid header: ${name}`);
    }
    headers[name] = value;
  }
  return headers;
}

export function validateProxyRequest(input: unknown): ProxyRequest {
  if (typeof input !== 'object' || input === null) throw new ProxyRequestError('A request must be an object.');
  const r = input as Record<string, unknown>;
  const connectionId = validateConnectionId(r.connectionId);
  const url = validateUrl(r.url, ['http:', 'https:']);
  if (!PROXY_METHODS.includes(r.method as ProxyMethod)) throw new ProxyRequestError(`Method not allowed: ${String(r.method)}`);
  const headers = validateHeaders(r.headers);
  if (r.body !== undefined && typeof r.body !== 'string') throw new ProxyRequestError('The body must be a string.');
  const timeoutMs = typeof r.timeoutMs === 'number' && r.timeoutMs > 0 ? Math.min(r.timeoutMs, MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
  return { connectionId, url: url.href, method: r.method as ProxyMethod, headers, body: r.body as string | undefined, timeoutMs };
}

export async function performProxyRequest(request: ProxyRequest, fetchFn: FetchFn, now: () => number = () => performance.now()): Promise<ProxyResponse> {
  const controller = new AbortController();
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const started = now();
  try {
    const response = await fetchFn(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
      credentials: 'include',
      redirect: 'follow',
      signal: controller.signal,
    });
    const body = new Uint8Array(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      // Cookies stay in main's jar; the page has no use for them.
      if (name.toLowerCase() !== 'set-cookie') headers[name] = value;
    });
    return { status: response.status, statusText: response.statusText, headers, body, timeMs: now() - started };
  } catch (err) {
    if (controller.signal.aborted) throw new Error(`No answer from ${request.url} within ${Math.round(timeoutMs / 1000)} s.`);
    const cause = (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message;
    throw new Error(`Could not reach ${request.url} (${cause}).`);
  } finally {
    clearTimeout(timer);
  }
}
