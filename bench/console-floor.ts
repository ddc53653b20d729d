/**
 * The floor page of the opening bench: bench/floor/ built by the same Vite (and the same React-free
 * Monaco set-up) as the renderer, into a temporary folder, and served from loopback by a plain static
 * server. Never part of out/: it exists only while the bench runs.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { build } from 'vite';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.json': 'application/json' };

export interface Floor {
  url: string;
  stop: () => Promise<void>;
}

export async function startFloor(): Promise<Floor> {
  const outDir = mkdtempSync(join(tmpdir(), 'jql-bench-floor-'));
  try {
    await build({
      root: resolve('bench/floor'),
      base: './',
      logLevel: 'warn',
      configFile: false,
      build: { outDir, emptyOutDir: true, minify: true, chunkSizeWarningLimit: 8192 },
      worker: { format: 'es' },
    });
  } catch (error) {
    rmSync(outDir, { recursive: true, force: true });
    throw error;
  }
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://floor').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(outDir, path === '/' ? 'index.html' : path);
    try {
      const body = readFileSync(file);
      response.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      await new Promise<void>((done) => server.close(() => done()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
