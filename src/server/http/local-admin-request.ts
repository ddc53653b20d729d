/**
 * Which requests may act as the local admin at all (docs/protocol.md "The local admin"): those whose
 * socket peer is a loopback address, whose `Host` is a loopback name with the server's own port
 * (parsed strictly), and whose `Origin`, when present, is the server's own. Another process or user
 * of the machine that holds no key, a page of another origin (another port of 127.0.0.1 is the same
 * site, so it would otherwise carry a SameSite cookie), or a machine on the network gets what an
 * anonymous caller gets.
 */
import type { FastifyRequest } from 'fastify';
import { LOCAL_ADMIN_COOKIE, sameSecret, type LocalAdminKeys } from '../auth/local-admin.ts';
import { isLoopbackAddress, isLoopbackName, parseHostHeader } from './loopback.ts';
import { isOwnOrigin } from './origin.ts';

const HTTP_PORT = 80;

export function mayActAsLocalAdmin(request: FastifyRequest): boolean {
  const socket = request.raw.socket;
  if (!isLoopbackAddress(socket?.remoteAddress)) return false;
  const host = parseHostHeader(request.headers.host);
  if (!host || !isLoopbackName(host.name) || (host.port ?? HTTP_PORT) !== socket.localPort) return false;
  const origin = request.headers.origin;
  return origin === undefined || isOwnOrigin(origin, request.headers.host);
}

/** The local admin cookie the request presents, when it is one that may present it. */
export function localAdminCookieOf(request: FastifyRequest): string | undefined {
  const value = request.cookies?.[LOCAL_ADMIN_COOKIE];
  return value && mayActAsLocalAdmin(request) ? value : undefined;
}

/** Whether the request acts as the local admin of this start (its cookie, from where it may come). */
export function isLocalAdminRequest(request: FastifyRequest, keys: LocalAdminKeys | undefined): boolean {
  const value = localAdminCookieOf(request);
  return keys !== undefined && value !== undefined && sameSecret(keys.cookie, value);
}
