import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningServer } from '../index.ts';
import { tempDir } from '../testing/fixture.ts';
import { launchCredential } from '../testing/launch.ts';

const demo = join(import.meta.dirname, '..', '..', '..', 'examples', 'demo-collection');
let server: RunningServer;
let root: string;
let dataDir: string;
/** The browser-mode console's credential: the cookie its launch URL sets and the page's secret. */
let admin: Record<string, string>;

beforeAll(async () => {
  root = tempDir('jql-collections-');
  dataDir = tempDir();
  cpSync(demo, join(root, 'team', 'demo'), { recursive: true });
  server = await start({ dataDir, port: 0, env: {}, localAdmin: true, collections: root });
  admin = (await launchCredential(server)).headers;
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const call = async (method: 'GET' | 'PUT' | 'POST', url: string, options: { cookie?: Record<string, string>; token?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      ...options.cookie,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return { statusCode: response.status, json: () => JSON.parse(text) };
};

const login = async (username: string, password: string): Promise<string> => {
  const res = await call('POST', '/jql', { body: { __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username, password } });
  return res.json().__payload__.token as string;
};

describe('collection folders for the browser-mode console', () => {
  it('lists the collections under the folder and reads one, without any secret value', async () => {
    const list = await call('GET', '/collections', { cookie: admin });
    expect(list.json()).toEqual({ collections: [{ id: 'team/demo', name: 'Demo helpdesk' }] });
    const one = (await call('GET', '/collections/team%2Fdemo', { cookie: admin })).json();
    expect(one).toMatchObject({ id: 'team/demo', name: 'Demo helpdesk', defaultEnvironment: 'demo', problems: [] });
    expect(one.requests.map((r: { path: string }) => r.path)).toContain('errors/02-viewer-may-not-delete-a-ticket.jql.json');
    expect(one.version).toMatch(/^[\w-]{16}$/);
  });

  it('writes a request file as the runner reads it, and the version changes', async () => {
    const before = (await call('GET', '/collections/team%2Fdemo', { cookie: admin })).json();
    const request = before.requests.find((r: { path: string }) => r.path === '01-open-tickets.jql.json');
    const file = { ...request.file, assertions: [...request.file.assertions.slice(0, 1), { target: 'extras.queries', op: 'lte', value: 9 }] };
    const { serializeRequestFile } = await import('../../shared/collections/format.ts');
    const text = serializeRequestFile(file);
    const answer = await call('PUT', '/collections/team%2Fdemo/requests', { cookie: admin, body: { path: '01-open-tickets.jql.json', text } });
    expect(answer.statusCode).toBe(200);
    expect(readFileSync(join(root, 'team', 'demo', '01-open-tickets.jql.json'), 'utf8')).toBe(text);
    expect(answer.json().version).not.toBe(before.version);
  });

  it('refuses a file the runner could not read, and a path out of the collection, writing nothing', async () => {
    const path = join(root, 'team', 'demo', '02-sign-in-as-admin.jql.json');
    const original = readFileSync(path, 'utf8');
    const bad = await call('PUT', '/collections/team%2Fdemo/requests', { cookie: admin, body: { path: '02-sign-in-as-admin.jql.json', text: '{"document": {}, "assertions": [{"target": "nope", "op": "eq", "value": 1}]}' } });
    expect(bad.statusCode).toBe(422);
    expect(readFileSync(path, 'utf8')).toBe(original);
    const escape = await call('PUT', '/collections/team%2Fdemo/requests', { cookie: admin, body: { path: '../../evil.jql.json', text: original } });
    expect(escape.statusCode).toBe(400);
    expect(escape.json().__errors__[0].message).toContain('outside the collection');
    expect((await call('GET', '/collections/team%2F..%2F..', { cookie: admin })).statusCode).toBe(404);
    expect((await call('GET', '/collections/%2Fetc', { cookie: admin })).statusCode).toBe(404);
  });

  it('approves a snapshot beside its request, and only for a request of the collection', async () => {
    const approved = { __payload__: [{ id: 1, title: 'A' }], __errors__: null };
    const answer = await call('PUT', '/collections/team%2Fdemo/snapshots', { cookie: admin, body: { path: '01-open-tickets.jql.json', snapshot: approved } });
    expect(answer.statusCode).toBe(200);
    expect(readFileSync(join(root, 'team', 'demo', '01-open-tickets.snapshot.json'), 'utf8')).toBe(`${JSON.stringify({ __errors__: null, __payload__: [{ id: 1, title: 'A' }] }, null, 2)}\n`);
    const request = answer.json().requests.find((r: { path: string }) => r.path === '01-open-tickets.jql.json');
    expect(request.snapshot).toEqual({ approved: { __errors__: null, __payload__: [{ id: 1, title: 'A' }] } });
    const unknown = await call('PUT', '/collections/team%2Fdemo/snapshots', { cookie: admin, body: { path: 'nope.jql.json', snapshot: approved } });
    expect(unknown.statusCode).toBe(404);
    const anonymous = await call('PUT', '/collections/team%2Fdemo/snapshots', { body: { path: '01-open-tickets.jql.json', snapshot: {} } });
    expect(anonymous.statusCode).toBe(401);
    rmSync(join(root, 'team', 'demo', '01-open-tickets.snapshot.json'));
  });

  it('approves a snapshot with the digits the server sent, and answers them back as digits', async () => {
    // 9007199254740993 is not a double: read as one it would be saved as 9007199254740992.
    const text = '{"path": "01-open-tickets.jql.json", "snapshot": {"__payload__": [{"id": 9007199254740993}, {"id": 12345678901234567890}], "__errors__": null}}';
    const response = await fetch(`${server.url}/collections/team%2Fdemo/snapshots`, { method: 'PUT', headers: { ...admin, 'content-type': 'application/json' }, body: text });
    expect(response.status).toBe(200);
    const file = readFileSync(join(root, 'team', 'demo', '01-open-tickets.snapshot.json'), 'utf8');
    expect(file).toContain('"id": 9007199254740993');
    expect(file).toContain('"id": 12345678901234567890');
    const answered = await response.text();
    expect(answered).toContain('"id":9007199254740993');
    expect(answered).not.toContain('\uE000');
    const broken = await fetch(`${server.url}/collections/team%2Fdemo/snapshots`, { method: 'PUT', headers: { ...admin, 'content-type': 'application/json' }, body: '{"path": ' });
    expect(broken.status).toBe(400);
    rmSync(join(root, 'team', 'demo', '01-open-tickets.snapshot.json'));
  });

  it("imports the console's saved-queries export as new folders", async () => {
    const { FILE_FORMAT } = await import('../../shared/collections/saved-export.ts');
    const text = JSON.stringify({ format: FILE_FORMAT, version: 1, collections: [{ name: 'Old saved', queries: [{ name: 'count', document: '{"__meta__": {"namespace": "tickets.Ticket", "intent": "count"}}' }] }] });
    const answer = await call('POST', '/collections/import', { cookie: admin, body: { export: text } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().collections).toContainEqual({ id: 'Old saved', name: 'Old saved' });
    const bad = await call('POST', '/collections/import', { cookie: admin, body: { export: '[]' } });
    expect(bad.statusCode).toBe(422);
  });

  it('serves the local admin only (its launch cookie, or the desktop app main\'s token), and only from this machine', async () => {
    expect((await call('GET', '/collections')).statusCode).toBe(401);
    const viewer = await login('viewer', 'viewer-demo');
    expect((await call('GET', '/collections', { token: viewer })).statusCode).toBe(403);
    const adminUser = await login('admin', 'admin-demo');
    expect((await call('GET', '/collections', { token: adminUser })).statusCode).toBe(403);
    expect((await call('GET', '/collections', { token: server.localAdminToken as string })).statusCode).toBe(200);
    // A page of another origin (another port of this machine is the same site, so it has the cookie).
    expect((await call('GET', '/collections', { cookie: admin, headers: { origin: 'http://127.0.0.1:1' } })).statusCode).toBe(403);
    // Another machine (the peer address is what decides, not the Host it names).
    const remote = await server.app.inject({ method: 'GET', url: '/collections', remoteAddress: '192.168.1.20', headers: { ...admin, host: new URL(server.url).host } });
    expect(remote.statusCode).toBe(403);
  });

  it('refuses to save into a collection whose manifest cannot be read, naming it, and writes nothing (issue 32.9)', async () => {
    cpSync(demo, join(root, 'team', 'broken'), { recursive: true });
    writeFileSync(join(root, 'team', 'broken', 'jql-collection.json'), '{"format": 1, "name": ');
    const text = readFileSync(join(demo, '01-open-tickets.jql.json'), 'utf8');
    const res = await call('PUT', `/collections/${encodeURIComponent('team/broken')}/requests`, { cookie: admin, body: { path: 'new-one.jql.json', text } });
    expect(res.statusCode).toBe(400);
    expect(res.json().__errors__[0].message).toMatch(/^jql-collection\.json of this collection cannot be read \(.+\); nothing was written$/);
    expect(existsSync(join(root, 'team', 'broken', 'new-one.jql.json'))).toBe(false);
  });
});
