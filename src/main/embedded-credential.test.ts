/**
 * The desktop side of "The local admin" (docs/workspace.md, issue 21.1) against the real server, started
 * the way main starts it: another process on the machine gets no console page, no configuration
 * and no credential from it; main, which holds the credential, acts as the local admin through its
 * gateway. Also: the files a workspace runs, which main names before it trusts a workspace.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_CONNECTION_ID } from '../shared/bridge.ts';
import { start, workspaceCodeFiles, type RunningServer } from '../server/index.ts';
import { performProxyRequest } from './http-proxy.ts';
import { nodeOutgoing } from './testing/node-outgoing.ts';
import { testConnections } from './testing/test-connections.ts';

let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jql-main-embedded-'));
  server = await start({ dataDir: join(dir, 'data'), host: '127.0.0.1', port: 0, localAdmin: true, serveConsole: false });
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the embedded server as main starts it', () => {
  it('hands nothing to another local process: no console page, no configuration, no admin', async () => {
    for (const path of ['/', '/console-config.json', '/index.html']) {
      const res = await fetch(`${server.url}${path}`, { headers: { Host: new URL(server.url).host } });
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toMatch(/localAdminToken|eyJ/);
    }
    const anonymous = await fetch(`${server.url}/jql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ __meta__: { namespace: 'system.User', intent: 'retrieve', schema: 'model' } }),
    });
    expect(anonymous.status).toBeGreaterThanOrEqual(400);
  });

  it("lets main, which holds the credential, act as the local admin for the page", async () => {
    const c = testConnections();
    c.registry.setEmbedded(server.url);
    c.vault.setLocalAdmin(server.localAdminToken ?? null);
    const res = await performProxyRequest(
      {
        connectionId: EMBEDDED_CONNECTION_ID,
        url: `${server.url}/jql`,
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ __meta__: { namespace: 'system.User', intent: 'retrieve', schema: 'model' } }),
        credentials: 'connection',
      },
      { gateway: c.gateway, open: (o) => nodeOutgoing(o) },
    );
    expect(res.status).toBe(200);
    expect(new TextDecoder().decode(res.body)).toContain('local-admin');
  });
});

describe('workspaceCodeFiles', () => {
  it("names each app's controllers and hooks modules, resolved beside the workspace", () => {
    const ws = join(dir, 'ws.json');
    writeFileSync(ws, JSON.stringify({ name: 'w', apps: { a: { controllers: './c.mjs', hooks: './h.mjs', models: {} }, b: { models: {} } } }));
    expect(workspaceCodeFiles(ws).sort()).toEqual([join(dir, 'c.mjs'), join(dir, 'h.mjs')]);
  });
});
