/**
 * start()/stop(): the server listening on a port, used by the CLI, by Electron main and by tests that
 * need a real socket.
 */
import { buildApp, type AppOptions } from './app.ts';
import type { FastifyInstance } from 'fastify';
import { localAdminToken } from './auth/local-admin.ts';
import type { ServerState } from './context.ts';

export interface StartOptions extends AppOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Sign the embedded console in as the local admin (the desktop app; `serve --local-admin`). */
  localAdmin?: boolean;
}

export interface RunningServer {
  /** `http://host:port{base}` */
  url: string;
  port: number;
  app: FastifyInstance;
  state: ServerState;
  /** With `localAdmin`: a token of the local admin, for the console's embedded connection. */
  localAdminToken?: string;
  close(): Promise<void>;
}

export async function start(options: StartOptions): Promise<RunningServer> {
  const { app, state } = await buildApp(options);
  if (options.localAdmin) state.localAdminToken = await localAdminToken(state.db, state.secret);
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: options.port ?? 8787 });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${shownHost}:${port}${options.basePath ?? ''}`,
    port,
    app,
    state,
    localAdminToken: state.localAdminToken,
    close: () => (closing ??= app.close()),
  };
}

export async function stop(server: RunningServer): Promise<void> {
  await server.close();
}

export { buildApp };
/** SQLite for the desktop app's own stores (history, documents): the server's one door to the driver. */
export { openDatabase, type Sqlite } from './db/database.ts';
/** "Reproduce locally": clone jobs whose copies a given `serve` function starts (Electron main, `serve`). */
export { CloneJobs, type ServeCopy } from './clone/clone-jobs.ts';
