import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localAdminToken } from '../auth/local-admin.ts';
import { tempDir, testApp, type TestApp } from '../testing/fixture.ts';

const demo = join(import.meta.dirname, '..', '..', '..', 'examples', 'demo-collection');
let t: TestApp;
let root: string;
let admin: string;

beforeAll(async () => {
  root = tempDir('jql-collections-');
  cpSync(demo, join(root, 'team', 'demo'), { recursive: true });
  t = await testApp({ collections: root });
  admin = await localAdminToken(t.state.db, t.state.secret);
});
afterAll(async () => {
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

const call = (method: 'GET' | 'PUT', url: string, options: { token?: string; body?: unknown; remoteAddress?: string } = {}) =>
  t.app.inject({
    method,
    url,
    remoteAddress: options.remoteAddress ?? '127.0.0.1',
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...(options.body ? { 'content-type': 'application/json' } : {}) },
    ...(options.body ? { payload: JSON.stringify(options.body) } : {}),
  });

describe('collection folders for the browser-mode console', () => {
  it('lists the collections under the folder and reads one, without any secret value', async () => {
    const list = await call('GET', '/collections', { token: admin });
    expect(list.json()).toEqual({ collections: [{ id: 'team/demo', name: 'Demo helpdesk' }] });
    const one = (await call('GET', '/collections/team%2Fdemo', { token: admin })).json();
    expect(one).toMatchObject({ id: 'team/demo', name: 'Demo helpdesk', defaultEnvironment: 'demo', problems: [] });
    expect(one.requests.map((r: { path: string }) => r.path)).toContain('errors/02-viewer-may-not-delete-a-ticket.jql.json');
    expect(one.version).toMatch(/^[\w-]{16}$/);
  });

  it('writes a request file as the runner reads it, and the version changes', async () => {
    const before = (await call('GET', '/collections/team%2Fdemo', { token: admin })).json();
    const request = before.requests.find((r: { path: string }) => r.path === '01-open-tickets.jql.json');
    const file = { ...request.file, assertions: [...request.file.assertions.slice(0, 1), { target: 'extras.queries', op: 'lte', value: 9 }] };
    const { serializeRequestFile } = await import('../../shared/collections/format.ts');
    const text = serializeRequestFile(file);
    const answer = await call('PUT', '/collections/team%2Fdemo/requests', { token: admin, body: { path: '01-open-tickets.jql.json', text } });
    expect(answer.statusCode).toBe(200);
    expect(readFileSync(join(root, 'team', 'demo', '01-open-tickets.jql.json'), 'utf8')).toBe(text);
    expect(answer.json().version).not.toBe(before.version);
  });

  it('refuses a file the runner could not read, and a path out of the collection, writing nothing', async () => {
    const path = join(root, 'team', 'demo', '02-sign-in-as-admin.jql.json');
    const original = readFileSync(path, 'utf8');
    const bad = await call('PUT', '/collections/team%2Fdemo/requests', { token: admin, body: { path: '02-sign-in-as-admin.jql.json', text: '{"document": {}, "assertions": [{"target": "nope", "op": "eq", "value": 1}]}' } });
    expect(bad.statusCode).toBe(422);
    expect(readFileSync(path, 'utf8')).toBe(original);
    const escape = await call('PUT', '/collections/team%2Fdemo/requests', { token: admin, body: { path: '../../evil.jql.json', text: original } });
    expect(escape.statusCode).toBe(400);
    expect(escape.json().__errors__[0].message).toContain('outside the collection');
    expect((await call('GET', '/collections/team%2F..%2F..', { token: admin })).statusCode).toBe(404);
    expect((await call('GET', '/collections/%2Fetc', { token: admin })).statusCode).toBe(404);
  });

  it("imports the console's saved-queries export as new folders", async () => {
    const { FILE_FORMAT } = await import('../../shared/collections/saved-export.ts');
    const text = JSON.stringify({ format: FILE_FORMAT, version: 1, collections: [{ name: 'Old saved', queries: [{ name: 'count', document: '{"__meta__": {"namespace": "tickets.Ticket", "intent": "count"}}' }] }] });
    const answer = await t.app.inject({ method: 'POST', url: '/collections/import', remoteAddress: '127.0.0.1', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, payload: JSON.stringify({ export: text }) });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().collections).toContainEqual({ id: 'Old saved', name: 'Old saved' });
    const bad = await t.app.inject({ method: 'POST', url: '/collections/import', remoteAddress: '127.0.0.1', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, payload: JSON.stringify({ export: '[]' }) });
    expect(bad.statusCode).toBe(422);
  });

  it('serves the local admin only, and only over loopback', async () => {
    expect((await call('GET', '/collections')).statusCode).toBe(401);
    const viewer = await t.login('viewer', 'viewer-demo');
    expect((await call('GET', '/collections', { token: viewer })).statusCode).toBe(403);
    const adminUser = await t.login('admin', 'admin-demo');
    expect((await call('GET', '/collections', { token: adminUser })).statusCode).toBe(403);
    expect((await call('GET', '/collections', { token: admin, remoteAddress: '192.168.1.20' })).statusCode).toBe(403);
  });
});
