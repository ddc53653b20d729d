/**
 * start()/stop(): the server listening on a port, used by the CLI, by Electron main and by tests that
 * need a real socket.
 */
import { buildApp, type AppOptions } from './app.ts';
import type { FastifyInstance } from 'fastify';

export interface StartOptions extends AppOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
}

export interface RunningServer {
  /** `http://host:port{base}` */
  url: string;
  port: number;
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function start(options: StartOptions): Promise<RunningServer> {
  const { app } = await buildApp(options);
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
    close: () => (closing ??= app.close()),
  };
}

export async function stop(server: RunningServer): Promise<void> {
  await server.close();
}

export { buildApp };
