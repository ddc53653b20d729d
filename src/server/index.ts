/**
 * start()/stop(): the server listening on a port, used by the CLI, by Electron main and by tests that
 * need a real socket.
 */
import { buildApp, type AppOptions, type BuiltApp } from './app.ts';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { localAdminToken, retireLocalAdminTokens } from './auth/local-admin.ts';
import type { ServerState } from './context.ts';
import { isLoopbackAddress, isLoopbackName, urlHost } from './http/loopback.ts';
import { launchUrl } from './web/launch-exchange.ts';
import { loadWorkspace } from './workspace/resolve.ts';

export interface StartOptions extends AppOptions {
  /** 0 picks a free port. */
  port?: number;
}

export interface RunningServer {
  /** `http://host:port{base}` */
  url: string;
  port: number;
  app: FastifyInstance;
  /** The state requests see now (a workspace applied in place replaces it). */
  readonly state: ServerState;
  /** Applies a workspace without a restart (`serve --watch`, apply-workspace.ts); throws, changing nothing, when it cannot. */
  applyWorkspace: BuiltApp['applyWorkspace'];
  /** The WebSocket connections open now, server side: stream sockets, and a local copy's proxied ones. */
  webSockets(): ReadonlySet<WebSocket>;
  /**
   * With `localAdmin`: the URL that makes a browser on this machine the local admin
   * (`http://host:port/?key=…`), printed by `serve --local-admin`. It dies with the process.
   */
  launchUrl?: string;
  /**
   * With `localAdmin`: a token of the local admin for the process that started the server (the desktop
   * app's main adds it to the page's requests); never for a page. The next start retires it.
   */
  localAdminToken?: string;
  close(): Promise<void>;
}

/** `--local-admin` on an address other machines can reach (docs/protocol.md "The local admin"). */
export class LocalAdminHostError extends Error {
  constructor(host: string) {
    super(
      `--local-admin serves the local admin to this machine only, so it needs a loopback --host (127.0.0.1, ::1 or localhost), not "${host}"; to serve the console on a network, sign in as real users (JQL_ADMIN, jql-console user add).`,
    );
    this.name = 'LocalAdminHostError';
  }
}

export async function start(options: StartOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  if (options.localAdmin && !isLoopbackName(host)) throw new LocalAdminHostError(host);
  const built = await buildApp({ ...options, host });
  const { app, state, listener, webSockets } = built;
  let token: string | undefined;
  try {
    // No local admin token of an earlier start stays valid, whatever this start's mode.
    await retireLocalAdminTokens(state.db);
    if (state.localAdmin) token = await localAdminToken(state.db, state.secret, state.localAdmin);
    await app.listen({ host, port: options.port ?? 8787 });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  if (typeof address === 'object' && address) listener.loopback = isLoopbackAddress(address.address);
  const origin = `http://${urlHost(host)}:${port}`;
  let closing: Promise<void> | null = null;
  return {
    url: `${origin}${options.basePath ?? ''}`,
    port,
    app,
    get state() {
      return built.state;
    },
    applyWorkspace: (ws) => built.applyWorkspace(ws),
    webSockets,
    ...(state.localAdmin ? { launchUrl: launchUrl(origin, state.localAdmin), localAdminToken: token } : {}),
    close: () => (closing ??= app.close()),
  };
}

export async function stop(server: RunningServer): Promise<void> {
  await server.close();
}

export { buildApp };

/**
 * The JavaScript files a workspace runs in the process that serves it (each app's controllers and
 * hooks modules), so the desktop app can say which files will run before it trusts a workspace.
 */
export function workspaceCodeFiles(file: string): string[] {
  const ws = loadWorkspace(file);
  return [...ws.apps.values()].flatMap((app) => [app.controllersPath, app.hooksPath]).filter((path): path is string => typeof path === 'string');
}
/** SQLite for the desktop app's own stores (history, documents): the server's one door to the driver. */
export { openDatabase, type Sqlite } from './db/database.ts';
/** "Reproduce locally": clone jobs whose copies a given `serve` function starts (Electron main, `serve`). */
export { CloneJobs, type ServeCopy, type ServedCopy } from './clone/clone-jobs.ts';
/** `serve --watch` and the desktop app's watching of the workspace it opened (docs/workspace.md). */
export { watchWorkspace, type WatchOptions, type WorkspaceWatch } from './workspace/watch.ts';
export { restartReason } from './apply-workspace.ts';
export { WatchStatus } from './workspace/watch-status.ts';
export type { Workspace } from './workspace/types.ts';
