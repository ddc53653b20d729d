/**
 * Which requests may act as the local admin at all (docs/protocol.md "The local admin"): those whose
 * socket peer is a loopback address, whose `Host` is a loopback name with the server's own port
 * (parsed strictly), and whose `Origin`, when present, is the server's own. Another process or user
 * of the machine that holds no key, a page of another origin (another port of 127.0.0.1 is the same
 * site, so it would otherwise carry a SameSite cookie), or a machine on the network gets what an
 * anonymous caller gets. And such a request is the local admin only with both halves: the cookie of
 * this server's port and the page's secret (a header, or on a WebSocket upgrade a subprotocol), so
 * a cookie caught by another server on 127.0.0.1 and replayed is anonymous (issue 30.1).
 */
import type { FastifyRequest } from 'fastify';
import { LOCAL_ADMIN_SUBPROTOCOL } from '../../shared/local-admin.ts';
import { isLocalAdminProof, localAdminCookieName, localAdminProof, type LocalAdminKeys } from '../auth/local-admin.ts';
import { isLoopbackAddress, isLoopbackName, parseHostHeader } from './loopback.ts';
import { isOwnOrigin } from './origin.ts';

const HTTP_PORT = 80;
const SECRET_HEADER = 'x-jql-local-admin';
const SECRET_PROTOCOL = `${LOCAL_ADMIN_SUBPROTOCOL}.`;

export function mayActAsLocalAdmin(request: FastifyRequest): boolean {
  const socket = request.raw.socket;
  if (!isLoopbackAddress(socket?.remoteAddress)) return false;
  const host = parseHostHeader(request.headers.host);
  if (!host || !isLoopbackName(host.name) || (host.port ?? HTTP_PORT) !== socket.localPort) return false;
  const origin = request.headers.origin;
  return origin === undefined || isOwnOrigin(origin, request.headers.host);
}

/** The local admin cookie of this server (its name has the port the request came in on), if any. */
export function localAdminCookieOf(request: FastifyRequest): string | undefined {
  // Cookies come from this header only: a request without it (most) is spared the name's making.
  if (request.headers.cookie === undefined) return undefined;
  const port = request.raw.socket?.localPort;
  return port === undefined ? undefined : request.cookies?.[localAdminCookieName(port)];
}

/** The page's secret: the header, or on a WebSocket upgrade the `jql-local-admin.<secret>` subprotocol. */
function pageSecretOf(request: FastifyRequest): string | undefined {
  const header = request.headers[SECRET_HEADER];
  if (typeof header === 'string' && header !== '') return header;
  const protocols = request.headers['sec-websocket-protocol'];
  if (typeof protocols !== 'string') return undefined;
  const offered = protocols.split(',').map((p) => p.trim()).find((p) => p.startsWith(SECRET_PROTOCOL));
  return offered?.slice(SECRET_PROTOCOL.length) || undefined;
}

/** Both halves of the local admin (cookie and page secret), joined, when the request may present them. */
export function presentedLocalAdmin(request: FastifyRequest): string | undefined {
  const cookie = localAdminCookieOf(request);
  const secret = pageSecretOf(request);
  return cookie && secret && mayActAsLocalAdmin(request) ? localAdminProof(cookie, secret) : undefined;
}

/** Whether the request acts as the local admin of this start (both halves, from where it may come). */
export function isLocalAdminRequest(request: FastifyRequest, keys: LocalAdminKeys | undefined): boolean {
  const presented = presentedLocalAdmin(request);
  return keys !== undefined && presented !== undefined && isLocalAdminProof(keys, presented);
}
