/**
 * WebSockets that main opens for the renderer (`ws:*`): the `/jql-streams` sockets of every
 * connection. The page's CSP allows it no socket of its own, and a session cookie lives in main's
 * per-connection jar anyway. Messages and closes go back as `ws:message` / `ws:closed` events. The
 * page names the connection, the URL and its bearer token if any; main adds the cookie.
 */
import { randomUUID } from 'node:crypto';
import type { WsClosedEvent, WsMessageEvent, WsOpenRequest } from '../shared/bridge.ts';
import { ProxyRequestError, validateConnectionId, validateUrl } from './http-proxy.ts';

/** The members of a `ws` WebSocket used here. */
export interface WsLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'open', listener: () => void): unknown;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: (code: number, reason: { toString(): string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface WsProxyDeps {
  create(url: string, headers: Record<string, string>): WsLike;
  /** The connection's cookies for that URL as a Cookie header, or null. */
  cookieHeader(connectionId: string, url: string): Promise<string | null>;
  onMessage(message: WsMessageEvent): void;
  onClosed(closed: WsClosedEvent): void;
  newId?: () => string;
  maxSockets?: number;
}

const MAX_MESSAGE_CHARS = 1024 * 1024;
const BEARER = /^Bearer [\x21-\x7e]{1,8192}$/;
const SOCKET_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function validateWsOpen(input: unknown): WsOpenRequest {
  if (typeof input !== 'object' || input === null) throw new ProxyRequestError('A socket request must be an object.');
  const r = input as Record<string, unknown>;
  const request: WsOpenRequest = { connectionId: validateConnectionId(r.connectionId), url: validateUrl(r.url, ['ws:', 'wss:']).href };
  if (r.authorization !== undefined) {
    if (typeof r.authorization !== 'string' || !BEARER.test(r.authorization)) throw new ProxyRequestError('The authorization must be "Bearer <token>".');
    request.authorization = r.authorization;
  }
  return request;
}

export function validateSocketId(input: unknown): string {
  if (typeof input !== 'string' || !SOCKET_ID.test(input)) throw new ProxyRequestError('Invalid socket id.');
  return input;
}

export function validateWsMessage(input: unknown): string {
  if (typeof input !== 'string' || input.length > MAX_MESSAGE_CHARS) throw new ProxyRequestError('A socket message is a string of at most 1 MiB.');
  return input;
}

/** Close codes a client may send (RFC 6455 7.4): 1000, or 3000-4999; other values become 1000. */
export function closeCode(input: unknown): number {
  return typeof input === 'number' && Number.isInteger(input) && (input === 1000 || (input >= 3000 && input <= 4999)) ? input : 1000;
}

export function closeReason(input: unknown): string {
  // At most 123 bytes on the wire; ASCII keeps the count simple.
  return typeof input === 'string' ? input.replace(/[^\x20-\x7e]/g, '').slice(0, 123) : '';
}

/** ws: -> http:, wss: -> https:, for the cookie lookup. */
export function httpUrlOf(wsUrl: string): string {
  const url = new URL(wsUrl);
  url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  return url.href;
}

export class WsProxy {
  private readonly sockets = new Map<string, WsLike>();
  private readonly deps: WsProxyDeps;

  constructor(deps: WsProxyDeps) {
    this.deps = deps;
  }

  get size(): number {
    return this.sockets.size;
  }

  /** Resolves with the socket's id once it is open; rejects when it cannot open. */
  async open(request: WsOpenRequest): Promise<{ socketId: string }> {
    if (this.sockets.size >= (this.deps.maxSockets ?? 32)) throw new Error('Too many open sockets.');
    const cookie = await this.deps.cookieHeader(request.connectionId, httpUrlOf(request.url));
    const socketId = (this.deps.newId ?? randomUUID)();
    const headers: Record<string, string> = {};
    if (cookie) headers.Cookie = cookie;
    if (request.authorization) headers.Authorization = request.authorization;
    const ws = this.deps.create(request.url, headers);
    this.sockets.set(socketId, ws);
    return new Promise((resolve, reject) => {
      let opened = false;
      ws.on('open', () => {
        opened = true;
        resolve({ socketId });
      });
      ws.on('message', (data, isBinary) => {
        // The stream protocol is text; binary frames are not ours to pass on.
        if (!isBinary && this.sockets.get(socketId) === ws) this.deps.onMessage({ socketId, data: String(data) });
      });
      ws.on('error', (error) => {
        if (!opened) {
          this.sockets.delete(socketId);
          reject(new Error(`Could not open ${request.url.replace(/token=[^&]*/, 'token=…')} (${error.message}).`));
        }
      });
      ws.on('close', (code, reason) => {
        const known = this.sockets.get(socketId) === ws;
        this.sockets.delete(socketId);
        if (!opened) reject(new Error(`Could not open ${request.url} (close code ${code}).`));
        else if (known) this.deps.onClosed({ socketId, code, reason: reason.toString() });
      });
    });
  }

  send(socketId: string, data: string): void {
    const ws = this.sockets.get(socketId);
    if (!ws) throw new Error('That socket is closed.');
    ws.send(data);
  }

  close(socketId: string, code: number, reason: string): void {
    const ws = this.sockets.get(socketId);
    if (!ws) return;
    ws.close(closeCode(code), closeReason(reason));
  }

  /** The page went away (reload, crash): its sockets go with it, without events. */
  closeAll(): void {
    const all = [...this.sockets.values()];
    this.sockets.clear();
    for (const ws of all) ws.terminate();
  }
}
