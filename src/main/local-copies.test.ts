/**
 * "Reproduce locally" in the desktop app against the real server and clone jobs, wired as main wires
 * them: `clone:status` tells the page where the copy is and its connection id, never the copy's local
 * admin token; main, which holds that token, signs the page's requests to the copy; and once the page
 * removes the copy, main forgets it.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloneJobStatus } from '../shared/clone.ts';
import { CloneJobs, start } from '../server/index.ts';
import { CASEBOOK_ADMIN, CASEBOOK_WORKSPACE, seedCasebook } from '../server/testing/casebook.ts';
import { startFileServer, type FileServer } from '../server/testing/file-server.ts';
import { tempDir, writeWorkspace } from '../server/testing/fixture.ts';
import { holdLocalCopies } from './connections/local-copies.ts';
import { performProxyRequest } from './http-proxy.ts';
import { cloneHandlers } from './ipc/clone-handlers.ts';
import { nodeOutgoing } from './testing/node-outgoing.ts';
import { testConnections } from './testing/test-connections.ts';

let source: FileServer;
let sourceToken: string;
let clones: CloneJobs;
const connections = testConnections({ allowLocal: false });
const root = tempDir('jql-main-copies-');

beforeAll(async () => {
  source = await startFileServer({ workspace: writeWorkspace(CASEBOOK_WORKSPACE), env: { JQL_ADMIN: `${CASEBOOK_ADMIN.username}:${CASEBOOK_ADMIN.password}` } });
  sourceToken = await source.login(CASEBOOK_ADMIN.username, CASEBOOK_ADMIN.password);
  await seedCasebook(source, sourceToken, 1);
  clones = new CloneJobs({
    root,
    serve: (copy) => start({ ...copy, host: '127.0.0.1', port: 0, localAdmin: true, serveConsole: false, env: {} }),
    onServed: holdLocalCopies(connections),
  });
}, 60_000);

afterAll(async () => {
  await clones?.close();
  await source?.close();
  rmSync(root, { recursive: true, force: true });
});

const query = { __meta__: { namespace: 'crm.Case', intent: 'retrieve', ordering: ['id'] }, title: null };

describe('a local copy in the desktop app', () => {
  it('reaches the page as a connection id; main signs its requests with the token it keeps', async () => {
    const handlers = cloneHandlers(clones);
    const { id } = await handlers['clone:start']({ url: source.url, token: sourceToken, query: JSON.stringify(query), depth: 1, withFiles: false, redact: [], name: 'Local copy' });
    let status: CloneJobStatus | null;
    do {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await handlers['clone:status'](id);
    } while (status?.state === 'running');
    if (status?.state !== 'done') throw new Error(`clone did not finish: ${JSON.stringify(status)}`);
    const { connectionId, url } = status.connection;
    const token = clones.servedCopy(connectionId)?.localAdminToken as string;
    expect(token).toMatch(/^eyJ/);
    // What the page is told: no token, under any name.
    expect(JSON.stringify(status)).not.toContain(token);
    expect(JSON.stringify(status)).not.toMatch(/localAdminToken/);

    // The page's request names the connection and carries nothing; main adds the copy's credential,
    // without asking the user about a local address it started itself.
    const res = await performProxyRequest(
      { connectionId, url: `${url}/jql`, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ __meta__: { namespace: 'crm.Region', intent: 'create' }, code: 'AP' }), credentials: 'connection' },
      { gateway: connections.gateway, open: (o) => nodeOutgoing(o) },
    );
    expect(res.status).toBe(200);
    expect(connections.asked).toEqual([]);

    // Removed by the page: main forgets the copy and its token.
    await connections.registry.forget(connectionId);
    expect(await connections.vault.bearerFor(connectionId)).toBeNull();
  });
});
