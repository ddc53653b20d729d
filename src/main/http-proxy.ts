/**
 * Performs the renderer's HTTP requests to JQL servers from main (Electron's network stack, one
 * cookie jar per connection), so remote servers need no CORS and session cookies work as they do
 * for any client. The request is validated here because the renderer is not trusted; the gateway
 * decides where it may go and which credential it carries, and receive-answer reads the answer
 * (no redirects, the connection's answer limit).
 */
import { PROXY_METHODS, type ProxyMethod, type ProxyRequest, type ProxyResponse } from '../shared/bridge.ts';
import type { ConnectionGateway } from './connections/gateway.ts';
import type { OpenRequest } from './net/outgoing.ts';
import { receiveAnswer } from './net/receive-answer.ts';

const MAX_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_TIMEOUT_MS = 60_000;
const CONNECTION_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_BODY_CHARS = 100 * 1024 * 1024;

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
  if (r.body !== undefined && (r.body as string).length > MAX_BODY_CHARS) throw new ProxyRequestError('The body is larger than 100 MiB.');
  if (r.credentials !== 'connection' && r.credentials !== 'omit') throw new ProxyRequestError('credentials is "connection" or "omit".');
  const timeoutMs = typeof r.timeoutMs === 'number' && r.timeoutMs > 0 ? Math.min(r.timeoutMs, MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
  return { connectionId, url: url.href, method: r.method as ProxyMethod, headers, body: r.body as string | undefined, timeoutMs, credentials: r.credentials };
}

export interface ProxyDeps {
  gateway: Pick<ConnectionGateway, 'prepare'>;
  open: OpenRequest;
  now?: () => number;
}

export async function performProxyRequest(request: ProxyRequest, deps: ProxyDeps): Promise<ProxyResponse> {
  const prepared = await deps.gateway.prepare(request);
  const now = deps.now ?? (() => performance.now());
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const started = now();
  const outgoing = deps.open({ method: request.method, url: prepared.url, jar: prepared.jar });
  for (const [name, value] of Object.entries(prepared.headers)) outgoing.setHeader(name, value);
  return new Promise<ProxyResponse>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const timer = setTimeout(() => {
      settle(() => reject(new Error(`No answer from ${request.url} within ${Math.round(timeoutMs / 1000)} s.`)));
      outgoing.abort();
    }, timeoutMs);
    receiveAnswer(outgoing, {
      url: request.url,
      limit: prepared.connection.answerLimit,
      started,
      now,
      done: (response) => settle(() => resolve(response)),
      fail: (error) => settle(() => reject(error)),
    });
    outgoing.on('error', (error) => settle(() => reject(new Error(`Could not reach ${request.url} (${error.message}).`))));
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body;
    if (body === undefined) return outgoing.end();
    outgoing.write(new TextEncoder().encode(body), () => outgoing.end());
  });
}
