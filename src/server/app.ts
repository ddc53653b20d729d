/**
 * buildApp(options): the fastify instance with every JQL route, without listening. Tests use it with
 * `app.inject`; `index.ts` listens.
 */
import type { WebSocket, WebSocketServer } from 'ws';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { fileURLToPath } from 'node:url';
import type { ServerState } from './context.ts';
import type { JsonValue } from '../shared/protocol.ts';
import type { Credentials } from './auth/identify.ts';
import { planUpload } from './dispatch/plan-upload.ts';
import { runRequest, type RunJql } from './dispatch/run-request.ts';
import { JqlFailure, jqlError, retryAfterOf, storageFault } from './errors.ts';
import { authorizeFile } from './files/file-access.ts';
import { sendFailure } from './http/error-reply.ts';
import { letClientFinishSending } from './http/refused-body.ts';
import { fileRoute, loggableUrl } from './http/files-route.ts';
import { HeldAnswers } from './http/held-answers.ts';
import { jqlPostRoute } from './http/jql-post.ts';
import { jqlPutRoute } from './http/jql-put.ts';
import { createState, type StateOptions } from './state.ts';
import { registerWebSockets, streamRoute, type StreamOptions } from './streams/route.ts';
import { CREDENTIAL_ROUTES, serveConsole } from './web/serve-console.ts';
import { clearStaleLocalAdminCookie } from './web/launch-exchange.ts';
import { hostGuard, listenerFor, type Listener } from './http/host-guard.ts';
import { addRequestGate } from './http/request-gate.ts';
import { CONNECTION_LIMITS, fastifyConnectionOptions, type ConnectionLimits } from './http/connection-limits.ts';
import { isLocalAdminRequest } from './http/local-admin-request.ts';
import { collectionsRoute } from './collections/collections-route.ts';
import type { CloneJobs } from './clone/clone-jobs.ts';
import { cloneRoute } from './clone/clone-route.ts';
import { copyProxyRoute } from './clone/copy-proxy.ts';
import type { WatchStatus } from './workspace/watch-status.ts';
import { watchRoute } from './workspace/watch-route.ts';
import { workspaceDigest } from './workspace/workspace-digest.ts';
import type { MigrationReport } from './workspace/migrate.ts';
import type { Workspace } from './workspace/types.ts';
import { applyInPlace } from './apply-workspace.ts';
import { LiveState } from './live-state.ts';

export interface AppOptions extends StateOptions {
  /** The address the server listens on (default 127.0.0.1): a loopback one answers loopback Hosts only. */
  host?: string;
  /** Origins allowed by CORS (`--cors`); none by default, and never on the credential routes. */
  cors?: string[];
  logger?: boolean | { level: string };
  /** Request timeouts and the connection cap (default CONNECTION_LIMITS; `serve --request-timeout`, `--max-connections`). */
  connections?: Partial<ConnectionLimits>;
  /** `/jql-streams` heartbeat and slow-subscriber limit (tests shorten them). */
  streams?: StreamOptions;
  /** A folder of collections the browser-mode console may open and edit (`--collections DIR`). */
  collections?: string;
  /** "Reproduce locally" for the browser-mode console (`--local-admin`): the clone jobs it may start. */
  clones?: CloneJobs;
  /**
   * Serve the console web UI and its configuration (browser mode, the default). The desktop app's
   * embedded server serves neither: its page is app://, and it hands no credential to any caller.
   */
  serveConsole?: boolean;
  /** `serve --watch`: the last save not applied, shown by `/healthz` (it outlives each restart). */
  watchStatus?: WatchStatus;
}

export interface BuiltApp {
  app: FastifyInstance;
  /** The state requests see now: a workspace applied in place (`applyWorkspace`) replaces it. */
  readonly state: ServerState;
  /**
   * Applies `ws` without a restart (apply-workspace.ts): throws, changing nothing, when its migration
   * is refused or a module fails to load.
   */
  applyWorkspace(ws: Workspace): Promise<MigrationReport>;
  /** Where it listens; start() sets `loopback` from the address actually bound. */
  listener: Listener;
  /** The WebSocket connections open now, server side: stream sockets, and a local copy's proxied ones. */
  webSockets(): ReadonlySet<WebSocket>;
}

/** Clients seen by the rate limiter at once; the least recently seen are forgotten first. */
const RATE_LIMIT_CLIENTS = 10_000;

export async function buildApp(options: AppOptions): Promise<BuiltApp> {
  const { state, hub, views } = await createState(options);
  // What belongs to the workspace is read from `live.state` for each request; what this function
  // reads from `state` belongs to the server (or is a limit of RESTART_LIMITS).
  const live = new LiveState(state);
  const connectionLimits: ConnectionLimits = { ...CONNECTION_LIMITS, ...options.connections };
  const app = Fastify({
    logger: loggerOptions(options.logger),
    childLoggerFactory: requestLoggers(),
    bodyLimit: state.ws.limits.maxBodyBytes,
    ...fastifyConnectionOptions(connectionLimits),
  });
  app.server.maxConnections = connectionLimits.maxConnections;
  app.addHook('onClose', () => {
    state.db.close();
  });
  // Before any other work, one hook for every request (http/request-gate.ts): a refused upgrade's
  // socket ended, a DNS-rebinding Host answered 421 (docs/protocol.md "Endpoints"), the cookies parsed,
  // a stale local admin cookie cleared.
  const listener = listenerFor(options.host ?? '127.0.0.1');
  await app.register(cookie, { hook: false });
  addRequestGate(app, { host: hostGuard(listener), withCookies: clearStaleLocalAdminCookie(() => state.localAdmin) });
  if (options.cors && options.cors.length > 0) {
    // PUT is a multipart upload (docs/protocol.md "Multipart uploads"): @fastify/cors allows only GET, HEAD and POST by default.
    const allowed = { origin: options.cors, credentials: true, methods: ['GET', 'HEAD', 'POST', 'PUT'] };
    await app.register(cors, { delegator: (request, callback) => callback(null, handsOutCredential(request) ? { origin: false } : allowed) });
  }
  app.setErrorHandler((error: FastifyError | JqlFailure, request, reply) => {
    const failure = error instanceof JqlFailure ? error : (storageFault(error) ?? toFailure(error));
    if (failure.status >= 500) request.log.error({ err: error }, 'request failed');
    const retryAfter = retryAfterOf(failure.errors);
    if (retryAfter !== null) reply.header('Retry-After', retryAfter);
    // A body refused unread (over maxBodyBytes, wrong type): the client must still read this answer.
    letClientFinishSending(request, reply);
    return sendFailure(reply, failure);
  });
  app.setNotFoundHandler((request, reply) =>
    sendFailure(reply, new JqlFailure([jqlError('not_found', `No route ${request.method} ${request.url.split('?')[0]}`)])),
  );
  // Limits are matched by route, not by URL text, so `/%6Aql` counts as `/jql`; the store is an LRU.
  const perMinute = state.ws.limits.requestsPerMinute;
  await app.register(rateLimit, {
    global: false,
    cache: RATE_LIMIT_CLIENTS,
    errorResponseBuilder: (_request, context) =>
      new JqlFailure([jqlError('rate_limited', `More than ${context.max} requests in a minute; try again in ${Math.ceil(context.ttl / 1000)} s`)]),
  });
  // Each route's store takes its size from the route's options, not the plugin's: without `cache`
  // here it would hold the plugin's default of 5,000 clients.
  const limit = perMinute > 0 ? { max: perMinute, timeWindow: 60_000, cache: RATE_LIMIT_CLIENTS } : (false as const);
  const run: RunJql = (input, log) => runRequest(live.state, input, log);
  const prefix = state.basePath;
  await app.register(async (scope) => {
    // The digest tells the console when to fetch `describe` again; `watch` is there under `serve --watch` only.
    let shown = { ws: state.ws, digest: workspaceDigest(state.ws) };
    const workspace = (): { digest: string } => {
      if (shown.ws !== live.state.ws) shown = { ws: live.state.ws, digest: workspaceDigest(live.state.ws) };
      return { digest: shown.digest };
    };
    const watch = options.watchStatus;
    scope.get('/healthz', async () => ({ status: 'ok', version: state.version, workspace: workspace(), ...(watch ? { watch: watch.snapshot() } : {}) }));
  }, { prefix });
  // The console's Apply and Cancel of a previewed save: under `serve --watch` only (else 404).
  if (options.watchStatus) await app.register(watchRoute, { prefix, identity: state.identity, status: options.watchStatus, production: state.production });
  // One bound for the answers of both routes (docs/protocol.md "Limits" heldAnswerBytes).
  const held = new HeldAnswers(state.ws.limits.heldAnswerBytes);
  await app.register(jqlPostRoute, { prefix, run, rateLimit: limit, held });
  const plan = (body: JsonValue, credentials: Credentials) => planUpload(live.state, body, credentials);
  await app.register(jqlPutRoute, { prefix, run, plan, rateLimit: limit, fileStore: state.fileStore, limits: state.ws.limits, held });
  await app.register(fileRoute, { prefix, authorize: (request) => authorizeFile(live.state, request), blobPath: (sha256) => state.fileStore.blobPath(sha256) });
  // The routes that take WebSocket upgrades (the stream socket, and a local copy's streams through the
  // copy proxy) share one WebSocket server in a scope of their own: its hooks then run for them only,
  // not for every POST /jql (issue 14.2).
  let webSocketServer: WebSocketServer | null = null;
  await app.register(async (sockets) => {
    await registerWebSockets(sockets);
    webSocketServer = sockets.websocketServer;
    await sockets.register(streamRoute, { prefix, live, hub, views, allowedOrigins: options.cors ?? [], ...options.streams });
    if (options.clones) await sockets.register(copyProxyRoute, { prefix, identity: state.identity, jobs: options.clones });
  });
  // The console web UI (browser mode): the same renderer the desktop app shows, at `/`.
  if (options.serveConsole !== false) await serveConsole(app, {
    basePath: state.basePath,
    rootDir: fileURLToPath(new URL('../../out/renderer', import.meta.url)),
    config: (request) => ({ basePath: state.basePath, version: state.version, ...(isLocalAdminRequest(request, state.localAdmin) ? { localAdmin: true } : {}) }),
    localAdmin: () => state.localAdmin,
  });
  if (options.collections) await app.register(collectionsRoute, { prefix: state.basePath, identity: state.identity, root: options.collections });
  if (options.clones) {
    const jobs = options.clones;
    await app.register(cloneRoute, { prefix: state.basePath, identity: state.identity, basePath: state.basePath, jobs });
    app.addHook('onClose', () => jobs.close());
  }
  return {
    app,
    get state() {
      return live.state;
    },
    applyWorkspace: (ws) => applyInPlace(live, hub, ws),
    listener,
    webSockets: () => webSocketServer?.clients ?? new Set(),
  };
}

/** The routes of the local admin credential, preflights to them included: never CORS (docs/workspace.md). */
function handsOutCredential(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route !== undefined && CREDENTIAL_ROUTES.has(route)) return true;
  try {
    return CREDENTIAL_ROUTES.has(new URL(request.url, 'http://host').pathname);
  } catch {
    return true;
  }
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
