/**
 * Serves the built console (out/renderer) at `/` and its configuration at `/console-config.json`,
 * so `jql-console serve` is also the browser-mode console for its own server. The renderer reads
 * the configuration to build its embedded connection (same origin + base path, and whether this
 * page acts as the local admin). `/?key=` is the launch URL of `--local-admin` (launch-exchange.ts).
 * No credential is ever handed to a page: the local admin is a cookie the page cannot read.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleConfig } from '../../shared/console-config.ts';
import type { LocalAdminKeys } from '../auth/local-admin.ts';
import { exchangeLaunchKey, LAUNCH_KEY_PARAM } from './launch-exchange.ts';

export interface ServeConsoleOptions {
  basePath: string;
  /** The built renderer, normally `out/renderer`. */
  rootDir: string;
  config: (request: FastifyRequest) => ConsoleConfig;
  /** This start's local admin (`--local-admin`), whose launch key `/?key=` exchanges. */
  localAdmin?: () => LocalAdminKeys | undefined;
}

/** Routes that hand out (or tell about) the local admin credential: never with CORS headers. */
export const CREDENTIAL_ROUTES: ReadonlySet<string> = new Set(['/', '/console-config.json']);

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

export async function serveConsole(app: FastifyInstance, opts: ServeConsoleOptions): Promise<void> {
  const noCors = { config: { cors: false } };
  app.get('/console-config.json', noCors, async (request, reply) =>
    // Never cached: it says whether this browser is the local admin.
    reply.header('Cache-Control', 'no-store').header('X-Content-Type-Options', 'nosniff').send(opts.config(request)),
  );

  const built = existsSync(join(opts.rootDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: opts.rootDir,
      prefix: '/',
      // `/` is the route below (it also takes the launch key); the other files are routes of their own.
      index: false,
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
  app.get('/', noCors, async (request, reply) => {
    const key = (request.query as Record<string, unknown>)[LAUNCH_KEY_PARAM];
    if (key !== undefined) return exchangeLaunchKey(request, reply, opts.localAdmin?.(), typeof key === 'string' ? key : '');
    if (!built) return reply.type('text/html; charset=utf-8').header('Content-Security-Policy', BROWSER_CSP).send(NOT_BUILT_PAGE);
    return reply.sendFile('index.html');
  });
}
