/**
 * `WS {base}/jql-streams` (docs/protocol.md "Streams"): identifies the caller from the Bearer header, the session
 * cookie, `?token=` or a first `auth` message (browsers cannot set headers on a WebSocket; the
 * message keeps the token out of URLs), hands each socket to a StreamConnection, and pings every
 * socket on a heartbeat: one that has not answered since the last ping is dead and is terminated.
 * An encapsulated plugin; the app registers the WebSocket server (registerWebSockets) in the scope of
 * the routes that take upgrades.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Credentials } from '../auth/identify.ts';
import type { ServerState } from '../context.ts';
import type { LiveState } from '../live-state.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import { sendFailure } from '../http/error-reply.ts';
import { isOwnOrigin } from '../http/origin.ts';
import { credentialsOf } from '../http/request-input.ts';
import { StreamConnection, type Caller } from './connection.ts';
import type { StreamHub } from './hub.ts';
import type { StreamViews } from './views.ts';

export interface StreamOptions {
  /** Milliseconds between heartbeat pings (default 30 s). */
  heartbeatMs?: number;
  /** Messages a subscriber may be behind before it is closed with 4008 (default 1,000). */
  maxBehind?: number;
}

export interface StreamRouteOptions extends StreamOptions {
  /** The state of the workspace running now; a workspace applied in place checks every subscription again. */
  live: LiveState;
  hub: StreamHub;
  views: StreamViews;
  /** Origins given with `--cors`: pages of these may open the socket besides the server's own. */
  allowedOrigins?: readonly string[];
}

/**
 * The WebSocket server, registered once, in the scope of the routes that take upgrades (app.ts):
 * @fastify/websocket adds an onRequest and an onResponse hook to the scope it is registered in, and at
 * the root every POST /jql would run both (issue 14.2). Its `upgrade` listener is the HTTP server's, so
 * an upgrade to any other route still reaches fastify, which answers it over HTTP; app.ts then ends
 * that socket.
 */
export async function registerWebSockets(app: FastifyInstance): Promise<void> {
  // A subscribe message is small; 1 MiB leaves room for large filters.
  await app.register(websocket, {
    options: { maxPayload: 1024 * 1024 },
    // 1001 "going away" tells stream clients the server stopped (they resume with `since`), rather
    // than the bare close (1005) the plugin sends by default.
    preClose(done) {
      for (const client of app.websocketServer.clients) client.close(1001, 'server shutting down');
      done();
    },
  });
}

export const STREAM_DEFAULTS = { heartbeatMs: 30_000, maxBehind: 1000 } as const;

export const streamRoute: FastifyPluginAsync<StreamRouteOptions> = async (app, options) => {
  const { live, hub, views } = options;
  // The identity service belongs to the server, not to a workspace: the same one across swaps.
  const state = live.state;
  const log = (error: unknown): void => app.log.error({ err: error }, 'stream delivery failed');
  hub.onError = log;
  const maxBehind = options.maxBehind ?? STREAM_DEFAULTS.maxBehind;
  const connections = new Set<StreamConnection>();
  const allowedOrigins = new Set((options.allowedOrigins ?? []).map((origin) => origin.toLowerCase()));
  app.route({
    method: 'GET',
    url: '/jql-streams',
    // Before the upgrade (docs/protocol.md "Streams"): a page of another site (or of another port of this machine,
    // which is the same site for cookies) must not read events with the user's cookie. Clients that
    // send no Origin are not browsers and are accepted.
    onRequest: async (request, reply) => {
      const origin = request.headers.origin;
      if (origin === undefined || isOwnOrigin(origin, request.headers.host) || allowedOrigins.has(origin.toLowerCase())) return undefined;
      return sendFailure(reply, new JqlFailure([jqlError('forbidden', `Pages of ${origin} may not open this stream socket: only the server's own origin and the origins given with --cors may`)]));
    },
    // A plain GET (no upgrade) is told what the endpoint is instead of an empty 404.
    handler: (_request, reply) =>
      sendFailure(reply, new JqlFailure([jqlError('invalid_request', 'jql-streams is a WebSocket endpoint: connect with an Upgrade request')])),
    wsHandler: (socket, request) => {
      const credentials = credentialsOf(request, true);
      const identifyToken = (token: string) => identify(state, { authorization: `Bearer ${token}` });
      const connection = new StreamConnection(socket, live.state, hub, () => identify(state, credentials), {
        maxBehind,
        log,
        identifyToken,
        views,
        rawSocket: request.raw.socket ?? null,
      });
      connections.add(connection);
      socket.on('message', (data, isBinary) => connection.receive(isBinary ? null : data.toString()));
      socket.on('pong', () => {
        connection.alive = true;
      });
      socket.on('close', () => {
        connections.delete(connection);
        connection.shutdown();
      });
    },
  });
  // Right after the commit of a change to a user (before any later commit's events are fanned out).
  const stopFollowing = state.identity.onUserChange((userId) => {
    for (const connection of connections) {
      try {
        connection.userChanged(userId);
      } catch (error) {
        log(error);
      }
    }
  });
  app.addHook('onClose', () => stopFollowing());
  // Right after the commit of a workspace applied in place, before any later commit's events.
  const stopSwaps = live.onSwap((next) => {
    for (const connection of connections) {
      try {
        connection.workspaceChanged(next);
      } catch (error) {
        log(error);
      }
    }
  });
  app.addHook('onClose', () => stopSwaps());
  const timer = setInterval(() => {
    for (const connection of connections) connection.heartbeat();
  }, options.heartbeatMs ?? STREAM_DEFAULTS.heartbeatMs);
  timer.unref();
  app.addHook('onClose', () => clearInterval(timer));
};

async function identify(state: ServerState, credentials: Credentials): Promise<Caller> {
  try {
    const identity = await state.identity.identify(credentials, undefined);
    return { user: identity.user, error: identity.error, ...(identity.proof ? { proof: identity.proof } : {}) };
  } catch {
    return { user: null, error: new Error('The credential could not be checked') };
  }
}
