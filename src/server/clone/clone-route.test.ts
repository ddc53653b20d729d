/**
 * "Reproduce locally" in browser mode over real HTTP: only the local admin may start a copy, follow
 * it and cancel it; the answers carry no CORS headers; a finished copy is reached through the
 * console's own server (its launch cookie, never the copy's local admin token, which no answer
 * holds) and answers the remote tab's query the same, its streams and file URLs included.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLONE_MANIFEST_FILE, type CloneJobStatus, type CloneRequest } from '../../shared/clone.ts';
import { CloneJobs, start, type RunningServer } from '../index.ts';
import { StreamClient } from '../testing/stream-client.ts';
import { CASEBOOK_ADMIN, CASEBOOK_WORKSPACE, seedCasebook } from '../testing/casebook.ts';
import { form, startFileServer, type FileServer } from '../testing/file-server.ts';
import { tempDir, writeWorkspace } from '../testing/fixture.ts';
import { readExchange } from '../testing/launch.ts';

/** Another page on this machine: allowed by --cors for the API, never for these routes. */
const FOREIGN_ORIGIN = 'http://localhost:5999';
let source: FileServer;
let sourceToken: string;
let console_: RunningServer;
let clones: CloneJobs;
let adminToken: string;
/** The browser's way in: the launch cookie and the page's secret, as the console page holds them. */
let launchCookie: Record<string, string>;
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
  clones = new CloneJobs({ root: clonesRoot, serve: (copy) => start({ ...copy, host: '127.0.0.1', port: 0, localAdmin: true, serveConsole: false, env: {} }) });
  console_ = await start({ dataDir, port: 0, localAdmin: true, cors: [FOREIGN_ORIGIN], clones, env: {} });
  adminToken = console_.localAdminToken as string;
  const launch = await fetch(console_.launchUrl as string, { redirect: 'manual' });
  launchCookie = (await readExchange(launch)).headers;
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

const request = (extra: Partial<CloneRequest> = {}): CloneRequest => ({ url: source.url, token: sourceToken, query: JSON.stringify(query), depth: 2, withFiles: false, redact: [], name: 'Local copy of Casebook', ...extra });

describe('the clone route', () => {
  it('copies a remote query for the local admin and serves it through the console, which answers the same', async () => {
    // As the page does it: the launch cookie, the console's own origin.
    const answers: string[] = [];
    const asPage = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(url, { method, headers: { ...launchCookie, origin: console_.url, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      const text = await response.text();
      answers.push(text, JSON.stringify([...response.headers]));
      return { status: response.status, headers: response.headers, body: JSON.parse(text) };
    };
    const started = await asPage('POST', `${console_.url}/local/clones`, request());
    expect(started.status).toBe(200);
    expect(started.headers.get('access-control-allow-origin')).toBeNull();
    let status: CloneJobStatus;
    do status = (await asPage('GET', `${console_.url}/local/clones/${started.body.id}`)).body;
    while (status.state === 'running');
    if (status.state !== 'done') throw new Error(`clone did not finish: ${JSON.stringify(status)}`);
    expect(status.progress.models.find((m) => m.namespace === 'crm.Case')).toMatchObject({ fetched: 4, total: 4 });
    expect(status.connection.name).toBe('Local copy of Casebook');
    expect(status.connection.dataDir.startsWith(clonesRoot)).toBe(true);
    // The copy's connection is a URL of the console's own origin.
    expect(status.connection.url).toBe(`${console_.url}/local/copies/${status.connection.connectionId}`);

    const local = await asPage('POST', `${status.connection.url}/jql`, query);
    expect(local.status).toBe(200);
    expect(local.headers.get('set-cookie')).toBeNull();
    const remote = await (await fetch(`${source.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${sourceToken}` }, body: JSON.stringify(query) })).json();
    expect(local.body.__payload__).toEqual((remote as { __payload__: unknown }).__payload__);
    // Writes go through too, as the copy's local admin.
    const created = await asPage('POST', `${status.connection.url}/jql`, { __meta__: { namespace: 'crm.Region', intent: 'create' }, code: 'AP', label: 'Asia' });
    expect(created.status).toBe(200);

    // "Sign in as…" a user of the copy: the login goes through with the cookie, and so do the user's
    // requests, carrying the copy's token for that user, which the copy (not this server) checks.
    const user = await asPage('POST', `${status.connection.url}/jql`, { __meta__: { namespace: 'system.User', intent: 'create' }, username: 'tester', password: 'tester-password-1', email: 'tester@copy.test' });
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    const login = await asPage('POST', `${status.connection.url}/jql`, { __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username: 'tester', password: 'tester-password-1' });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const userToken = login.body.__payload__.token as string;
    const asUser = (cookie: Record<string, string> | null) =>
      fetch(`${status.connection.url}/jql`, {
        method: 'POST',
        headers: { ...cookie, origin: console_.url, authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ __meta__: { namespace: 'system.User', intent: 'verifyAuthentication', schema: 'controller' }, username: null }),
      });
    const who = await asUser(launchCookie);
    expect(who.status).toBe(200);
    expect(((await who.json()) as { __payload__: { username: string } }).__payload__.username).toBe('tester');
    // The copy's token alone does not open the way: only the local admin's cookie does.
    expect((await asUser(null)).status).toBe(401);

    // What only the console's server holds never reached the page.
    const served = clones.servedCopy(status.connection.connectionId);
    expect(served?.localAdminToken).toMatch(/^eyJ/);
    for (const text of answers) {
      expect(text).not.toContain(served?.localAdminToken);
      expect(text).not.toMatch(/localAdminToken/);
    }
  });

  it('forwards the copy\'s streams and file downloads, for the launch cookie only', async () => {
    const { id } = (await (await call('POST', '/local/clones', request({ withFiles: true }))).json()) as { id: string };
    const status = await until(id, (s) => s.state !== 'running');
    if (status.state !== 'done') throw new Error(`clone did not finish: ${JSON.stringify(status)}`);
    const base = status.connection.url;
    const page = { ...launchCookie, origin: console_.url };

    const stream = await StreamClient.connect(`${base.replace(/^http/, 'ws')}/jql-streams`, { headers: page });
    try {
      expect(await stream.subscribe({ id: 'regions', namespace: 'crm.Region' })).toMatchObject({ type: 'subscribed' });
      const post = await fetch(`${base}/jql`, { method: 'POST', headers: { ...page, 'content-type': 'application/json' }, body: JSON.stringify({ __meta__: { namespace: 'crm.Region', intent: 'create' }, code: 'SA', label: 'South America' }) });
      expect(post.status).toBe(200);
      const [event] = await stream.events('regions', 1);
      expect(event.record).toMatchObject({ code: 'SA' });
    } finally {
      await stream.close();
    }

    // A file value's URL is a path under the copy's base: on the console's origin it reaches the copy.
    const cases = (await (await fetch(`${base}/jql`, { method: 'POST', headers: { ...page, 'content-type': 'application/json' }, body: JSON.stringify({ __meta__: { namespace: 'crm.Case', intent: 'retrieve', ordering: ['id'], limit: 1 }, attachment: null }) })).json()) as any;
    const file = cases.__payload__[0].attachment as { url: string };
    const download = await fetch(new URL(file.url, console_.url), { headers: page });
    expect(download.status).toBe(200);
    expect(await download.text()).toMatch(/^log of case 0/);
    // An upload's multipart body streams through to the copy.
    const upload = await fetch(`${base}/jql`, {
      method: 'PUT',
      headers: page,
      body: form({ __meta__: { namespace: 'crm.Case', intent: 'update', uniqueObject: { id: cases.__payload__[0].id }, sideEffects: { multipartFormUpload: true, fileFieldMapping: { attachment: 'file' } } } }, { file: { data: 'uploaded through the console', name: 'new.log', type: 'text/plain' } }),
    });
    expect(upload.status).toBe(200);

    // Without the launch cookie, from another page, or for a copy that does not exist: nothing.
    const anonymous = await fetch(`${base}/jql`, { method: 'POST', headers: { origin: console_.url, 'content-type': 'application/json' }, body: JSON.stringify(query) });
    expect(anonymous.status).toBe(401);
    const foreign = await fetch(`${base}/jql`, { method: 'POST', headers: { ...page, origin: FOREIGN_ORIGIN, 'content-type': 'application/json' }, body: JSON.stringify(query) });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const missing = await fetch(`${console_.url}/local/copies/copy-nope/jql`, { method: 'POST', headers: { ...page, 'content-type': 'application/json' }, body: JSON.stringify(query) });
    expect(missing.status).toBe(404);
    await expect(StreamClient.connect(`${base.replace(/^http/, 'ws')}/jql-streams`, { headers: { origin: console_.url } })).rejects.toThrow(/401/);
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

  it("a finished copy's status shows the query's 64-bit numbers with the digits its manifest file holds", async () => {
    const big = '{"__meta__":{"namespace":"crm.Account","intent":"retrieve","filter":{"id__in":[9007199254740993,9223372036854775807]}},"name":null}';
    const { id } = (await (await call('POST', '/local/clones', request({ query: big, depth: 0 }))).json()) as { id: string };
    const status = await until(id, (s) => s.state !== 'running');
    if (status.state !== 'done') throw new Error(`clone did not finish: ${JSON.stringify(status)}`);
    const text = await (await call('GET', `/local/clones/${id}`)).text();
    const onDisk = readFileSync(join(status.connection.dataDir, CLONE_MANIFEST_FILE), 'utf8');
    // The same digits as the file, as numbers: not rounded, not the marker strings the server keeps them as.
    expect(onDisk.replace(/\s/g, '')).toContain('"id__in":[9007199254740993,9223372036854775807]');
    expect(text).toContain('"id__in":[9007199254740993,9223372036854775807]');
    expect(text).not.toContain('\uE000');
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
