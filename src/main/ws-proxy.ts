/**
 * WebSockets that main opens for the renderer (`ws:*`): the `/jql-streams` sockets of every
 * connection. The page's CSP allows it no socket of its own. The page names the connection and the
 * URL; the gateway checks that the URL is on the connection's origin and main adds the credential
 * (bearer token, cookies from the connection's jar). Messages and closes go back as `ws:message` /
 * `ws:closed` events. Each socket's backlog is bounded both ways (issue 21.5): main stops reading a
 * socket while the page has more than BACKLOG_PAUSE_CHARS of its messages unacknowledged (TCP then
 * holds the server back, which closes a subscriber that falls too far behind with 4008, docs/protocol.md
 * 10), and refuses to queue a message to send while the socket's own buffer is full.
 */
import { randomUUID } from 'node:crypto';
import type { WsClosedEvent, WsMessageEvent, WsOpenRequest } from '../shared/bridge.ts';
import { plainLabel } from '../shared/plain-label.ts';
import { checkedLookup, type LookupFn } from './connections/checked-lookup.ts';
import type { ConnectionGateway } from './connections/gateway.ts';
import { ProxyRequestError, validateConnectionId, validateUrl } from './http-proxy.ts';

/** One message from the server may be this large (ws closes with 1009 above it). */
export const MAX_INCOMING_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Main pauses reading a socket while the page has this much of its messages unacknowledged... */
export const BACKLOG_PAUSE_CHARS = 8 * 1024 * 1024;
/** ...and reads on once the page is back under this. */
export const BACKLOG_RESUME_CHARS = 2 * 1024 * 1024;
/** Messages the page sends wait in the socket's buffer up to this much. */
export const MAX_OUTGOING_BUFFER_BYTES = 8 * 1024 * 1024;

/** The members of a `ws` WebSocket used here. */
export interface WsLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  pause(): void;
  resume(): void;
  readonly bufferedAmount: number;
  on(event: 'open', listener: () => void): unknown;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: (code: number, reason: { toString(): string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface WsProxyDeps {
  gateway: Pick<ConnectionGateway, 'prepare'>;
  create(url: string, headers: Record<string, string>, options: { lookup: LookupFn; maxPayload: number }): WsLike;
  /** The cookies of a connection's jar for that URL as a Cookie header, or null. */
  cookieHeader(jar: string, url: string): Promise<string | null>;
  onMessage(message: WsMessageEvent): void;
  onClosed(closed: WsClosedEvent): void;
  newId?: () => string;
  maxSockets?: number;
  /** BACKLOG_PAUSE_CHARS and BACKLOG_RESUME_CHARS unless given (tests use small ones). */
  backlog?: { pauseChars: number; resumeChars: number };
}

const MAX_MESSAGE_CHARS = 1024 * 1024;
const SOCKET_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function validateWsOpen(input: unknown): WsOpenRequest {
  if (typeof input !== 'object' || input === null) throw new ProxyRequestError('A socket request must be an object.');
  const r = input as Record<string, unknown>;
  // No credential comes from the page: main adds the connection's own, unless asked to open it anonymously.
  const request: WsOpenRequest = { connectionId: validateConnectionId(r.connectionId), url: validateUrl(r.url, ['ws:', 'wss:']).href };
  if (r.credentials === 'omit') request.credentials = 'omit';
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

/** Characters the page acknowledges at once: at most what one socket may hold back. */
export function validateAckChars(input: unknown): number {
  if (typeof input !== 'number' || !Number.isInteger(input) || input < 0 || input > 1024 ** 3) throw new ProxyRequestError('Invalid acknowledgement.');
  return input;
}

interface OpenSocket {
  ws: WsLike;
  /** Characters sent to the page and not yet acknowledged. */
  unacked: number;
  paused: boolean;
}

export class WsProxy {
  private readonly sockets = new Map<string, OpenSocket>();
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
    const prepared = await this.deps.gateway.prepare({ connectionId: request.connectionId, url: request.url, headers: {}, credentials: request.credentials ?? 'connection' });
    const cookie = prepared.jar ? await this.deps.cookieHeader(prepared.jar, httpUrlOf(request.url)) : null;
    const socketId = (this.deps.newId ?? randomUUID)();
    const headers: Record<string, string> = { ...prepared.headers };
    if (cookie) headers.Cookie = cookie;
    const ws = this.deps.create(request.url, headers, { lookup: checkedLookup(prepared.reach.allowLocal), maxPayload: MAX_INCOMING_MESSAGE_BYTES });
    const entry: OpenSocket = { ws, unacked: 0, paused: false };
    this.sockets.set(socketId, entry);
    return new Promise((resolve, reject) => {
      let opened = false;
      ws.on('open', () => {
        opened = true;
        resolve({ socketId });
      });
      ws.on('message', (data, isBinary) => {
        // The stream protocol is text; binary frames are not ours to pass on.
        if (isBinary || this.sockets.get(socketId) !== entry) return;
        const text = String(data);
        entry.unacked += text.length;
        if (!entry.paused && entry.unacked > (this.deps.backlog?.pauseChars ?? BACKLOG_PAUSE_CHARS)) {
          entry.paused = true;
          ws.pause();
        }
        this.deps.onMessage({ socketId, data: text });
      });
      ws.on('error', (error) => {
        if (!opened) {
          this.sockets.delete(socketId);
          reject(new Error(`Could not open ${request.url.replace(/token=[^&]*/, 'token=…')} (${error.message}).`));
        }
      });
      ws.on('close', (code, reason) => {
        const known = this.sockets.get(socketId) === entry;
        this.sockets.delete(socketId);
        if (!opened) reject(new Error(`Could not open ${request.url} (close code ${code}).`));
        else if (known) this.deps.onClosed({ socketId, code, reason: plainLabel(reason.toString()) });
      });
    });
  }

  send(socketId: string, data: string): void {
    const socket = this.sockets.get(socketId);
    if (!socket) throw new Error('That socket is closed.');
    if (socket.ws.bufferedAmount + data.length > MAX_OUTGOING_BUFFER_BYTES) throw new Error('The socket is not sending fast enough: the message was not sent.');
    socket.ws.send(data);
  }

  /** The page has taken `chars` more characters of this socket's messages. */
  ack(socketId: string, chars: number): void {
    const socket = this.sockets.get(socketId);
    if (!socket) return;
    socket.unacked = Math.max(0, socket.unacked - chars);
    if (socket.paused && socket.unacked <= (this.deps.backlog?.resumeChars ?? BACKLOG_RESUME_CHARS)) {
      socket.paused = false;
      socket.ws.resume();
    }
  }

  close(socketId: string, code: number, reason: string): void {
    const socket = this.sockets.get(socketId);
    if (!socket) return;
    socket.ws.close(closeCode(code), closeReason(reason));
  }

  /** The page went away (reload, crash): its sockets go with it, without events. */
  closeAll(): void {
    const all = [...this.sockets.values()];
    this.sockets.clear();
    for (const socket of all) socket.ws.terminate();
  }
}
