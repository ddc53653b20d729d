import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/fixture.ts';
import { BROWSER_CSP, serveConsole } from './serve-console.ts';

function builtRenderer(): string {
  const dir = tempDir('jql-renderer-');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
  return dir;
}

async function app(rootDir: string) {
  const server = Fastify();
  server.post('/api/jql', async () => ({ ok: true }));
  await serveConsole(server, { basePath: '/api', rootDir, config: () => ({ basePath: '/api', version: '9.9.9' }) });
  return server;
}

describe('serveConsole', () => {
  it('serves index.html at / with the CSP', async () => {
    const server = await app(builtRenderer());
    const res = await server.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-security-policy']).toBe(BROWSER_CSP);
    expect(res.body).toContain('<div id="root">');
    const asset = await server.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('answers the configuration, uncached, with no credential in it', async () => {
    const server = await app(builtRenderer());
    const res = await server.inject({ method: 'GET', url: '/console-config.json', headers: { host: '127.0.0.1:8787' } });
    expect(res.json()).toEqual({ basePath: '/api', version: '9.9.9' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers a launch key it cannot take with a page that says why, and no cookie', async () => {
    const server = await app(builtRenderer());
    const res = await server.inject({ method: 'GET', url: '/?key=abc' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).toContain('launch link is not valid');
  });

  it('says to build when the renderer is missing', async () => {
    const server = await app(join(tmpdir(), 'jql-no-such-dir'));
    const res = await server.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('npm run build');
  });

  it('shadows no server route', async () => {
    const server = await app(builtRenderer());
    expect((await server.inject({ method: 'POST', url: '/api/jql' })).json()).toEqual({ ok: true });
    expect((await server.inject({ method: 'GET', url: '/nope' })).statusCode).toBe(404);
  });
});
