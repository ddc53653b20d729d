/**
 * Serves the built console (out/renderer) at `/` and its configuration at `/console-config.json`,
 * so `jql-console serve` is also the browser-mode console for its own server. The renderer reads
 * the configuration to build its embedded connection (same origin + base path, and the local
 * admin's token when the server runs with --local-admin).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ConsoleConfig } from '../../shared/console-config.ts';

export interface ServeConsoleOptions {
  basePath: string;
  /** The built renderer, normally `out/renderer`. */
  rootDir: string;
  config: () => ConsoleConfig;
}

/**
 * The page may talk to any JQL server (remote connections), so connect-src is open to http(s) and
 * ws(s); everything else is as strict as in the desktop app.
 */
export const BROWSER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self' http: https: ws: wss:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>JQL Console</title></head>
<body style="font: 14px system-ui, sans-serif; margin: 3rem; max-width: 40rem">
<h1>JQL Console is not built yet</h1>
<p>The JQL server is running, but the console's web UI has not been built. Run <code>npm run build</code>
in the project folder, then reload this page.</p>
</body></html>`;

/** `127.0.0.1:8787`, `localhost`, `[::1]:8787`: a Host header that names this machine's loopback. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

export async function serveConsole(app: FastifyInstance, opts: ServeConsoleOptions): Promise<void> {
  app.get('/console-config.json', async (request, reply) => {
    const config = opts.config();
    // The local admin's token goes only to a page loaded from a loopback name: a DNS-rebinding
    // page (evil.example resolving to 127.0.0.1) sends its own Host and gets no token.
    const { localAdminToken, ...rest } = config;
    const body: ConsoleConfig = localAdminToken && isLoopbackHost(request.headers.host) ? { ...rest, localAdminToken } : rest;
    // Never cached: it may hold a token.
    return reply.header('Cache-Control', 'no-store').header('X-Content-Type-Options', 'nosniff').send(body);
  });

  if (!existsSync(join(opts.rootDir, 'index.html'))) {
    app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').header('Content-Security-Policy', BROWSER_CSP).send(NOT_BUILT_PAGE));
    return;
  }

  await app.register(fastifyStatic, {
    root: opts.rootDir,
    prefix: '/',
    index: ['index.html'],
    // One route per built file instead of a catch-all, so no server route is ever shadowed.
    wildcard: false,
    setHeaders(reply, path) {
      reply.header('Content-Security-Policy', BROWSER_CSP);
      reply.header('X-Content-Type-Options', 'nosniff');
      reply.header('Referrer-Policy', 'no-referrer');
      // Hashed assets never change; index.html must be re-read after a rebuild.
      reply.header('Cache-Control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
