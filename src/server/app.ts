/**
 * buildApp(options): the fastify instance with every JQL route, without listening. Tests use it with
 * `app.inject`; `index.ts` listens.
 */
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';
import type { ServerState } from './context.ts';
import { JqlFailure, jqlError } from './errors.ts';
import { registerJsonParser } from './http/json-body.ts';
import { errorBody, registerJqlRoute } from './http/jql-route.ts';
import { loggableUrl, registerFileRoute } from './http/file-route.ts';
import { registerJqlPutRoute } from './http/jql-put-route.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { createState, type StateOptions } from './state.ts';
import { serveConsole } from './web/serve-console.ts';
import { registerStreamRoute, type StreamOptions } from './streams/route.ts';
import { collectionsRoute } from './collections/collections-route.ts';

export interface AppOptions extends StateOptions {
  /** Origins allowed by CORS (`--cors`); none by default. */
  cors?: string[];
  logger?: boolean | { level: string };
  /** `/jql-streams` heartbeat and slow-subscriber limit (tests shorten them). */
  streams?: StreamOptions;
  /** A folder of collections the browser-mode console may open and edit (`--collections DIR`). */
  collections?: string;
}

export interface BuiltApp {
  app: FastifyInstance;
  state: ServerState;
}

export async function buildApp(options: AppOptions): Promise<BuiltApp> {
  const state = await createState(options);
  const app = Fastify({
    logger: loggerOptions(options.logger),
    childLoggerFactory: requestLoggers(),
    bodyLimit: state.ws.limits.maxBodyBytes,
  });
  app.addHook('onClose', () => {
    state.db.close();
  });
  await app.register(cookie);
  if (options.cors && options.cors.length > 0) {
    await app.register(cors, { origin: options.cors, credentials: true });
  }
  registerJsonParser(app);
  app.setErrorHandler((error: FastifyError | JqlFailure, request, reply) => {
    const failure = error instanceof JqlFailure ? error : toFailure(error);
    if (failure.status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.code(failure.status).type('application/json; charset=utf-8').send(JSON.stringify(errorBody(failure, 'standard')));
  });
  app.setNotFoundHandler((request, reply) => {
    const failure = new JqlFailure([jqlError('not_found', `No route ${request.method} ${request.url.split('?')[0]}`)]);
    return reply.code(404).type('application/json; charset=utf-8').send(JSON.stringify(errorBody(failure, 'standard')));
  });
  app.get(`${state.basePath}/healthz`, async () => ({ status: 'ok', version: state.version }));
  registerRateLimit(app, state.ws.limits.requestsPerMinute, [`${state.basePath}/jql`]);
  registerJqlRoute(app, state);
  // The console web UI (browser mode): the same renderer the desktop app shows, at `/`.
  await serveConsole(app, {
    basePath: state.basePath,
    rootDir: fileURLToPath(new URL('../../out/renderer', import.meta.url)),
    config: () => ({ basePath: state.basePath, version: state.version, ...(state.localAdminToken ? { localAdminToken: state.localAdminToken } : {}) }),
  });
  // After the JSON parser (which removes every content-type parser registered before it) and after
  // the error handler, so the PUT route uses it. The multipart plugin lives in a scope of its own: its
  // async hooks then run only for PUT /jql, not on every POST /jql, where they cost about as much as
  // reading a record. POST /jql still refuses a multipart body (no parser: unsupported_media_type).
  await app.register(async (scope) => {
    await registerJqlPutRoute(scope, state);
  });
  registerFileRoute(app, state);
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
  registerStreamRoute(app, state, options.streams);
  if (options.collections) await app.register(collectionsRoute, { prefix: state.basePath, state, root: options.collections });
  return { app, state };
}

/**
 * JQL URLs carry secrets in their query strings (file signatures, stream tokens): logged requests
 * show the path only, and headers (Authorization, cookies) are never logged.
 */
function loggerOptions(logger: AppOptions['logger']) {
  if (!logger) return false;
  const level = logger === true ? 'info' : logger.level;
  return {
    level,
    serializers: {
      req: (req: { method?: string; url?: string }) => ({ method: req.method, url: loggableUrl(req.url ?? '') }),
    },
  };
}

/**
 * Fastify makes a child logger per request to bind its id to the request logs. Those logs are at
 * `info`; when the level is above it (`serve` logs at `warn`) no request log is written, and one
 * shared child serves every request instead of a new one each time (measurable on small reads).
 */
function requestLoggers() {
  const shared = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();
  type ChildArgs = Parameters<FastifyBaseLogger['child']>;
  return (logger: FastifyBaseLogger, bindings: ChildArgs[0], opts: NonNullable<ChildArgs[1]>): FastifyBaseLogger => {
    // Without a logger (tests) fastify passes its no-op logger, which has no isLevelEnabled.
    const infoEnabled = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? false;
    if (infoEnabled || opts.level !== undefined || opts.serializers !== undefined) return logger.child(bindings, opts);
    let child = shared.get(logger);
    if (!child) shared.set(logger, (child = logger.child({}, opts)));
    return child;
  };
}

/** Fastify's own failures (body size, content type) as coded JQL errors. */
function toFailure(error: FastifyError): JqlFailure {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new JqlFailure([jqlError('payload_too_large', 'The request body is larger than the server accepts')]);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new JqlFailure([jqlError('unsupported_media_type', 'POST /jql takes application/json; PUT /jql takes multipart/form-data')]);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new JqlFailure([jqlError('invalid_json', 'The body is empty')]);
    default:
      if (error.statusCode === 400) return new JqlFailure([jqlError('invalid_request', error.message)]);
      if (error.statusCode === 413) return new JqlFailure([jqlError('payload_too_large', error.message)]);
      if (error.statusCode === 415) return new JqlFailure([jqlError('unsupported_media_type', error.message)]);
      return new JqlFailure([jqlError('internal_error', 'The server could not process this request')]);
  }
}
