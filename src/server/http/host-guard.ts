/**
 * DNS rebinding (docs/protocol.md "Endpoints"): a page on `evil.example`, whose name its owner points at 127.0.0.1,
 * is same-origin with a server listening there and could read everything the console can. A server
 * listening on a loopback address therefore answers only a `Host` that names loopback or the
 * `--host` it was given; any other gets 421 `misdirected_request`, on every route, the console page
 * and the WebSocket upgrade included. A server listening on other addresses is reached by names the
 * server cannot know (a proxy's, a LAN name), so it answers every Host.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JqlFailure, jqlError } from '../errors.ts';
import { sendFailure } from './error-reply.ts';
import { isLoopbackAddress, isLoopbackName, parseHostHeader, urlHost } from './loopback.ts';

/** Where the server listens: the `--host` given and whether the bound address is loopback. */
export interface Listener {
  host: string;
  loopback: boolean;
}

/** Before `listen` (tests over `app.inject`) the given name decides; start() corrects it once bound. */
export function listenerFor(host: string): Listener {
  return { host, loopback: isLoopbackName(host) || isLoopbackAddress(host) };
}

export function answersHost(listener: Listener, header: string | undefined): boolean {
  if (!listener.loopback) return true;
  const host = parseHostHeader(header);
  if (!host) return false;
  return isLoopbackName(host.name) || host.name === urlHost(listener.host.toLowerCase());
}

/**
 * The check of every request's Host, for the one onRequest hook (http/request-gate.ts): true when the
 * request goes on; false when it was answered 421 here and must go no further.
 */
export function hostGuard(listener: Listener) {
  // The last Host header answered, with the listener as it was then: a client sends the same one on
  // every request, so most requests compare one string instead of parsing it (issue 14.2). The answer
  // depends on nothing else; another header, or a listener start() corrected, is checked in full.
  let accepted: { header: string; host: string; loopback: boolean } | null = null;
  return (request: FastifyRequest, reply: FastifyReply): boolean => {
    const header = request.headers.host;
    const known = accepted !== null && header === accepted.header && listener.host === accepted.host && listener.loopback === accepted.loopback;
    if (known || answersHost(listener, header)) {
      if (!known && header !== undefined) accepted = { header, host: listener.host, loopback: listener.loopback };
      return true;
    }
    sendFailure(
      reply,
      new JqlFailure([jqlError('misdirected_request', 'This server answers only requests addressed to this machine by a loopback name (localhost, 127.0.0.1, [::1]) or by its --host')]),
    );
    return false;
  };
}
