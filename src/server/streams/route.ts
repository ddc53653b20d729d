/**
 * `WS {base}/jql-streams` (PROTOCOL.md 10): identifies the caller from the Bearer header, the session
 * cookie, `?token=` or a first `auth` message (browsers cannot set headers on a WebSocket; the
 * message keeps the token out of URLs), hands each socket to a
 * StreamConnection, and pings every socket on a heartbeat: one that has not answered since the last
 * ping is dead and is terminated. Needs @fastify/websocket registered on the app.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../auth/cookies.ts';
import type { ServerState } from '../context.ts';
import { JqlFailure, jqlError } from '../errors.ts';
import { errorBody } from '../http/jql-route.ts';
import { StreamConnection, type Caller } from './connection.ts';

type Credentials = Parameters<ServerState['identity']['identify']>[0];

export interface StreamOptions {
  /** Milliseconds between heartbeat pings (default 30 s). */
  heartbeatMs?: number;
  /** Messages a subscriber may be behind before it is closed with 4008 (default 1,000). */
  maxBehind?: number;
}

export const STREAM_DEFAULTS = { heartbeatMs: 30_000, maxBehind: 1000 } as const;

export function registerStreamRoute(app: FastifyInstance, state: ServerState, options: StreamOptions = {}): void {
  const hub = state.streams;
  if (!hub) return;
  const log = (error: unknown): void => app.log.error({ err: error }, 'stream delivery failed');
  hub.onError = log;
  const maxBehind = options.maxBehind ?? STREAM_DEFAULTS.maxBehind;
  const connections = new Set<StreamConnection>();
  app.route({
    method: 'GET',
    url: `${state.basePath}/jql-streams`,
    // A plain GET (no upgrade) is told what the endpoint is instead of an empty 404.
    handler: (_request, reply) => {
      const failure = new JqlFailure([jqlError('invalid_request', 'jql-streams is a WebSocket endpoint: connect with an Upgrade request')]);
      return reply.code(400).type('application/json; charset=utf-8').send(JSON.stringify(errorBody(failure, 'standard')));
    },
    wsHandler: (socket, request) => {
      const credentials = credentialsOf(request);
      const identifyToken = (token: string) => identify(state, { authorization: `Bearer ${token}` });
      const connection = new StreamConnection(socket, state, hub, () => identify(state, credentials), { maxBehind, log, identifyToken });
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
  const timer = setInterval(() => {
    for (const connection of connections) connection.heartbeat();
  }, options.heartbeatMs ?? STREAM_DEFAULTS.heartbeatMs);
  timer.unref();
  app.addHook('onClose', () => clearInterval(timer));
}

function credentialsOf(request: FastifyRequest): Credentials {
  const token = (request.query as Record<string, unknown>).token;
  return {
    authorization: request.headers.authorization,
    cookie: request.cookies?.[SESSION_COOKIE],
    queryToken: typeof token === 'string' ? token : undefined,
  };
}

async function identify(state: ServerState, credentials: Credentials): Promise<Caller> {
  try {
    const identity = await state.identity.identify(credentials, undefined);
    return { user: identity.user, error: identity.error };
  } catch {
    return { user: null, error: new Error('The credential could not be checked') };
  }
}
