/**
 * How the browser-mode console reaches a copy made by "Reproduce locally" without holding its local
 * admin credential (docs/protocol.md "The local admin"): the copy is served under this server's own
 * origin, at `copyPath(base, connectionId)`, and this server forwards each request there to the
 * copy's server, signed with the copy's local admin token, which never leaves this process. Only the
 * local admin of this server (its launch cookie and page secret, from where it may act) gets through, by the same
 * guard as the clone routes. A request that carries its own Authorization (the page signed in to the
 * copy as one of its users, "Sign in as…") goes with that one instead, so the copy answers as that
 * user; the page's cookies never reach the copy, and no cookie the copy sets reaches the page (it
 * would land on this origin). HTTP (queries, uploads, file
 * downloads) streams both ways; `jql-streams` is a WebSocket piped to one on the copy.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import WebSocket from 'ws';
import type { IdentityService } from '../context.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import { sendFailure } from '../http/error-reply.ts';
import { refuseUnlessLocalAdmin } from '../http/local-admin-only.ts';
import type { CloneJobs, ServedCopy } from './clone-jobs.ts';

export interface CopyProxyOptions {
  /** Who calls: only the local admin may (http/local-admin-only.ts). */
  identity: IdentityService;
  jobs: Pick<CloneJobs, 'servedCopy'>;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];
/** This server checked them; the copy gets its own credential and its own Host instead. */
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'host', 'cookie', 'x-jql-local-admin', 'authorization', 'origin', 'referer']);
/** A cookie the copy sets would be this origin's: the page never gets one. */
const NOT_RETURNED = new Set([...HOP_BY_HOP, 'set-cookie']);
/** Messages the page may send before the copy's socket is open (a subscribe or two in practice). */
const MAX_EARLY_MESSAGES = 64;

const NO_CORS = { cors: false };
const noSuchCopy = () => new JqlFailure([jqlError('not_found', 'No such local copy: it was never made, or the console\'s server was restarted since')]);

export const copyProxyRoute: FastifyPluginAsync<CopyProxyOptions> = async (app, { identity, jobs }) => {
  // Bodies are forwarded as they arrive, unread: the copy parses (and bounds) them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  const copyOf = (request: FastifyRequest): ServedCopy | null => jobs.servedCopy((request.params as { copy: string }).copy);

  app.addHook('preHandler', async (request, reply) => {
    // An Authorization header here is the page's credential for the copy, not for this server.
    const refusal = await refuseUnlessLocalAdmin(identity, request, 'Local copies', { authorizationIsForward: true });
    if (refusal) return sendFailure(reply, refusal);
    if (!copyOf(request)) return sendFailure(reply, noSuchCopy());
    return undefined;
  });

  app.route({
    method: 'GET',
    url: '/local/copies/:copy/jql-streams',
    config: NO_CORS,
    handler: (request, reply) => forward(copyOf(request) as ServedCopy, request, reply),
    wsHandler: (socket, request) => pipeSockets(socket, copyOf(request) as ServedCopy, request.url),
  });
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT'],
    url: '/local/copies/:copy/*',
    config: NO_CORS,
    handler: (request, reply) => forward(copyOf(request) as ServedCopy, request, reply),
  });
};

function signedHeaders(headers: IncomingHttpHeaders, copy: ServedCopy): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !NOT_FORWARDED.has(name)) out[name] = value;
  out.host = new URL(copy.url).host;
  // The copy's own user, when the page signed in as one; else the copy's local admin.
  out.authorization = typeof headers.authorization === 'string' && /^Bearer \S+$/.test(headers.authorization) ? headers.authorization : `Bearer ${copy.localAdminToken}`;
  return out;
}

/** The copy is served at the same path as here (its base path is this route's prefix): the URL goes as sent. */
function forward(copy: ServedCopy, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const target = new URL(copy.url);
  return new Promise((resolve) => {
    const outgoing = httpRequest({ hostname: target.hostname, port: target.port, method: request.method, path: request.url, headers: signedHeaders(request.headers, copy) }, (answer) => {
      reply.code(answer.statusCode ?? 500);
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !NOT_RETURNED.has(name)) reply.header(name, value);
      resolve(reply.send(answer));
    });
    outgoing.on('error', () => {
      if (reply.sent) return;
      resolve(sendFailure(reply, new JqlFailure([jqlError('internal_error', 'The local copy\'s server did not answer')])));
    });
    // The page went away: so does the request to the copy.
    reply.raw.on('close', () => outgoing.destroy());
    const body = request.body as Readable | undefined;
    if (body && typeof body.pipe === 'function') body.pipe(outgoing);
    else outgoing.end();
  });
}

/** The page's socket and one on the copy, message for message, closed together. */
function pipeSockets(page: WebSocket, copy: ServedCopy, url: string): void {
  const target = new URL(url, copy.url.replace(/^http/, 'ws'));
  const upstream = new WebSocket(target, { headers: { authorization: `Bearer ${copy.localAdminToken}` }, followRedirects: false, maxPayload: 64 * 1024 * 1024 });
  const early: Array<{ data: WebSocket.RawData; binary: boolean }> = [];
  page.on('message', (data, binary) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
    else if (early.length < MAX_EARLY_MESSAGES) early.push({ data, binary });
    else closeWith(page, 1008, 'Too many messages before the local copy answered');
  });
  upstream.on('open', () => {
    for (const { data, binary } of early.splice(0)) upstream.send(data, { binary });
  });
  upstream.on('message', (data, binary) => {
    if (page.readyState === WebSocket.OPEN) page.send(data, { binary });
  });
  upstream.on('close', (code, reason) => closeWith(page, code, reason.toString()));
  upstream.on('error', () => closeWith(page, 1011, 'The local copy\'s server did not answer'));
  page.on('close', (code, reason) => closeWith(upstream, code, reason.toString()));
  page.on('error', () => upstream.terminate());
}

/** Closes with the other side's code when it is one a peer may send (1005, 1006 are not), else a plain 1000 or 1011. */
function closeWith(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState === WebSocket.CLOSED || socket.readyState === WebSocket.CLOSING) return;
  if (socket.readyState === WebSocket.CONNECTING) return socket.terminate();
  const sendable = (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999);
  socket.close(sendable ? code : code === 1005 ? 1000 : 1011, Buffer.byteLength(reason) <= 123 ? reason : '');
}
