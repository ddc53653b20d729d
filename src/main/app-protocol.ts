/**
 * Serves the built renderer (out/renderer) on `app://console/…` with the CSP as a response header.
 * Paths are resolved inside the root and nothing else: `..`, encoded slashes and absolute paths
 * answer 404, so the page cannot read arbitrary files through its own scheme.
 */
import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { APP_HOST, APP_SCHEME } from './app-url.ts';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export function mimeTypeOf(path: string): string {
  return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** The file an app:// URL names inside rootDir, or null when it names anything else. */
export function resolveAppFile(rootDir: string, url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const relative = pathname === '/' ? 'index.html' : pathname.replace(/^\/+/, '');
  const root = resolve(rootDir);
  const file = resolve(root, relative);
  if (file !== root && !file.startsWith(root + sep)) return null;
  return file;
}

export type ReadFileFn = (path: string) => Promise<Uint8Array>;

export function createAppProtocolHandler(options: { rootDir: string; csp: string; read?: ReadFileFn }): (request: Request) => Promise<Response> {
  const read = options.read ?? ((p: string) => readFile(p));
  const headers = (type: string) => ({
    'Content-Type': type,
    'Content-Security-Policy': options.csp,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  });
  return async (request: Request) => {
    const file = resolveAppFile(options.rootDir, request.url);
    if (!file) return new Response('Not found', { status: 404, headers: headers('text/plain; charset=utf-8') });
    try {
      const body = await read(file);
      return new Response(body, { status: 200, headers: headers(mimeTypeOf(file)) });
    } catch {
      return new Response('Not found', { status: 404, headers: headers('text/plain; charset=utf-8') });
    }
  };
}
