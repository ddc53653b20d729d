/**
 * "Reproduce locally" in browser mode over real HTTP: only the local admin may start a copy, follow
 * it and cancel it; the answers carry no CORS headers; a finished copy is served on its own port
 * and answers the remote tab's query the same.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloneJobStatus, CloneRequest } from '../../shared/clone.ts';
import { CloneJobs, start, type RunningServer } from '../index.ts';
import { CASEBOOK_ADMIN, CASEBOOK_WORKSPACE, seedCasebook } from '../testing/casebook.ts';
import { startFileServer, type FileServer } from '../testing/file-server.ts';
import { tempDir, writeWorkspace } from '../testing/fixture.ts';

/** Another page on this machine: allowed by --cors for the API, never for these routes. */
const FOREIGN_ORIGIN = 'http://localhost:5999';
let source: FileServer;
let sourceToken: string;
let console_: RunningServer;
let adminToken: string;
const dirs: string[] = [];
const clonesRoot = tempDir('jql-clone-route-');

beforeAll(async () => {
  const wsDir = tempDir('jql-clone-route-ws-');
  dirs.push(wsDir, clonesRoot);
  source = await startFileServer({ workspace: writeWorkspace(CASEBOOK_WORKSPACE, wsDir), env: { JQL_ADMIN: `${CASEBOOK_ADMIN.username}:${CASEBOOK_ADMIN.password}` } });
  sourceToken = await source.login(CASEBOOK_ADMIN.username, CASEBOOK_ADMIN.password);
  await seedCasebook(source, sourceToken, 2);
  const dataDir = tempDir('jql-clone-route-console-');
  dirs.push(dataDir);
  const clones = new CloneJobs({ root: clonesRoot, serve: (copy) => start({ ...copy, host: '127.0.0.1', port: 0, localAdmin: true, env: {} }) });
  console_ = await start({ dataDir, port: 0, localAdmin: true, cors: [FOREIGN_ORIGIN], clones, env: {} });
  adminToken = console_.localAdminToken as string;
}, 60_000);

afterAll(async () => {
  await console_?.close();
  await source?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const query = { __meta__: { namespace: 'crm.Case', intent: 'retrieve', ordering: ['id'] }, title: null, account: { name: null, region: { code: null } }, comments: { body: null } };

function call(method: string, path: string, body?: unknown, bearer: string | null = adminToken, origin = console_.url) {
  return fetch(`${console_.url}${path}`, {
    method,
    headers: { origin, ...(body ? { 'content-type': 'application/json' } : {}), ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function until(id: string, done: (status: CloneJobStatus) => boolean): Promise<CloneJobStatus> {
  for (;;) {
    const status = (await (await call('GET', `/local/clones/${id}`)).json()) as CloneJobStatus;
    if (done(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const request = (extra: Partial<CloneRequest> = {}): CloneRequest => ({ url: source.url, token: sourceToken, query, depth: 2, withFiles: false, redact: [], name: 'Local copy of Casebook', ...extra });

describe('the clone route', () => {
  it('copies a remote query for the local admin and serves the copy, which answers the same', async () => {
    const started = await call('POST', '/local/clones', request());
    expect(started.status).toBe(200);
    expect(started.headers.get('access-control-allow-origin')).toBeNull();
    const { id } = (await started.json()) as { id: string };
    const status = await until(id, (s) => s.state !== 'running');
    if (status.state !== 'done') throw new Error(`clone did not finish: ${JSON.stringify(status)}`);
    expect(status.progress.models.find((m) => m.namespace === 'crm.Case')).toMatchObject({ fetched: 4, total: 4 });
    expect(status.connection.name).toBe('Local copy of Casebook');
    expect(status.connection.dataDir.startsWith(clonesRoot)).toBe(true);

    const ask = async (url: string, bearer: string) =>
      (await (await fetch(`${url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` }, body: JSON.stringify(query) })).json()) as { __payload__: unknown };
    expect((await ask(status.connection.url, status.connection.localAdminToken)).__payload__).toEqual((await ask(source.url, sourceToken)).__payload__);
    // The console page's origin may call the copy.
    const preflight = await fetch(`${status.connection.url}/jql`, { method: 'OPTIONS', headers: { origin: console_.url, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(console_.url);
  });

  it('refuses anyone but the local admin', async () => {
    const anonymous = await call('POST', '/local/clones', request(), null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('access-control-allow-origin')).toBeNull();
    const other = await call('POST', '/local/clones', request(), sourceToken);
    expect(other.status).toBe(401);
    // Another page on this machine, even one --cors allows, with the local admin's own credential.
    const foreign = await call('POST', '/local/clones', request(), adminToken, FOREIGN_ORIGIN);
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect((await call('GET', '/local/clones/nope')).status).toBe(404);
    expect((await call('POST', '/local/clones', { ...request(), depth: 'deep' })).status).toBe(400);
  });

  it('cancels a copy that is waiting on the source, and leaves nothing behind', async () => {
    // A source that keeps asking to wait (429 with Retry-After).
    const slow: Server = createServer((_req, res) => res.writeHead(429, { 'retry-after': '30', 'content-type': 'application/json' }).end('{"__payload__":null,"__errors__":[{"code":"rate_limited","message":"wait"}]}'));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const before = readdirSync(clonesRoot).length;
      const { port } = slow.address() as { port: number };
      const { id } = (await (await call('POST', '/local/clones', request({ url: `http://127.0.0.1:${port}` }))).json()) as { id: string };
      await until(id, (s) => s.state === 'running' && (s.progress.rateLimitedMs ?? 0) > 0);
      expect((await call('POST', `/local/clones/${id}/cancel`)).status).toBe(200);
      const status = await until(id, (s) => s.state !== 'running');
      expect(status.state).toBe('cancelled');
      expect(readdirSync(clonesRoot)).toHaveLength(before);
      expect(existsSync(join(clonesRoot, 'tmp'))).toBe(false);
    } finally {
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
