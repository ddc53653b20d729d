// POST /workspace/apply and /workspace/cancel (docs/workspace.md "Changing a workspace while it
// runs"): the console applies or cancels the save `serve --watch` held back because it would stop
// serving stored values. Only an admin may, only for the save that was previewed (a later save is a
// 409 and nothing is applied), never on a production server, and only under --watch.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../index.ts';
import { launchCredential } from '../testing/launch.ts';
import { startServer, tempDir, testApp, writeWorkspace } from '../testing/fixture.ts';
import { watchWorkspace, type WorkspaceWatch } from './watch.ts';
import { WatchStatus } from './watch-status.ts';

const fields = (extra: Record<string, unknown>) => ({ title: { type: 'string', required: true }, ...extra });
const workspace = (noteFields: Record<string, unknown>) => ({
  name: 'notes',
  apps: { notes: { models: { Note: { fields: noteFields, permissions: { retrieve: ['anyone'], create: ['anyone'] } } } } },
});
const FULL = fields({ body: { type: 'text', null: true }, tag: { type: 'string', null: true } });
const ENV = { JQL_ADMIN: 'root:root-password-1' };

const opened: Array<{ close(): unknown }> = [];
afterAll(async () => {
  for (const item of opened.reverse()) await item.close();
});

async function until<T>(read: () => T | null, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A server under a watcher, as `serve --watch --local-admin` runs it (restart on the same port). */
async function watched() {
  const dir = tempDir('jql-watch-route-');
  const file = writeWorkspace(workspace(FULL), dir);
  const dataDir = join(dir, 'data');
  const status = new WatchStatus();
  const options = { dataDir, env: ENV, localAdmin: true, watchStatus: status };
  const server: RunningServer = await startServer({ ...options, workspace: file });
  const out: string[] = [];
  const watcher: WorkspaceWatch = watchWorkspace({
    file,
    dataDir,
    allowDestructive: false,
    current: server.state.ws,
    status,
    debounceMs: 20,
    // In place, as `serve --watch` applies a change that touches no limit read at start.
    apply: async (ws) => {
      await server.applyWorkspace(ws);
    },
    out: (line) => out.push(line),
    err: (line) => out.push(line),
  });
  opened.push({ close: () => server.close() }, watcher);
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const jql = (body: unknown, token?: string) => post('/jql', body, token ? { authorization: `Bearer ${token}` } : {});
  const login = async (username: string, password: string) => (await jql({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username, password })).body.__payload__.token as string;
  const noteFields = async () => Object.keys((await jql({ __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } })).body.__payload__.apps.notes.models.Note.fields);
  const write = (noteFieldsNow: Record<string, unknown>) => writeFileSync(file, JSON.stringify(workspace(noteFieldsNow), null, 2));
  const save = async (noteFieldsNow: Record<string, unknown>) => {
    write(noteFieldsNow);
    return until(() => status.snapshot().pendingDigest, 'a pending preview');
  };
  return { status, out, watcher, post, jql, login, noteFields, write, save, server: () => server };
}

describe('POST /workspace/apply and /workspace/cancel', () => {
  it('applies the previewed save for an admin only, refuses a stale digest with nothing written, and says when nothing is pending', async () => {
    const w = await watched();
    const root = await w.login('root', 'root-password-1');
    await w.jql({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'vera', password: 'vera-password-1', roles: [] }, root);
    const vera = await w.login('vera', 'vera-password-1');
    await w.jql({ __meta__: { namespace: 'notes.Note', intent: 'create' }, title: 'kept', body: 'a body worth keeping', tag: 't' });

    // A save that removes `body` (it holds a value): previewed with its rows and values, held back.
    const lossyDigest = await w.save(fields({ tag: { type: 'string', null: true } }));
    const report = w.status.snapshot();
    expect(report.changes).toEqual([{ kind: 'lossy', target: 'notes.Note.body', what: expect.stringContaining('field removed: 1 rows hold values'), rows: 1, sample: ['a body worth keeping'] }]);
    expect(report.preview).toContain('LOSES   notes.Note.body');

    // Then a second save removes `tag` too: the first preview is no longer the file's.
    w.write(fields({}));
    const pending = await until(() => {
      const d = w.status.snapshot().pendingDigest;
      return d !== null && d !== lossyDigest ? d : null;
    }, 'the new preview');
    expect(w.status.snapshot().changes?.map((c) => c.target)).toEqual(['notes.Note.body', 'notes.Note.tag']);

    const admin = await launchCredential(w.server());
    // Who may: nobody signed in gets 401, a signed-in user without the admin role 403.
    const anonymous = await w.post('/workspace/apply', { digest: pending });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.__errors__[0].code).toBe('unauthenticated');
    const user = await w.post('/workspace/apply', { digest: pending }, { authorization: `Bearer ${vera}` });
    expect(user.status).toBe(403);
    expect(user.body.__errors__[0].code).toBe('forbidden');
    // The cookie without the page's secret is not the local admin.
    expect((await w.post('/workspace/apply', { digest: pending }, { cookie: admin.cookie })).status).toBe(401);
    expect((await w.post('/workspace/apply', {}, admin.headers)).body.__errors__[0].code).toBe('invalid_request');

    // The preview the admin saw is not the file's any more: 409, and nothing is applied or lost.
    const stale = await w.post('/workspace/apply', { digest: lossyDigest }, admin.headers);
    expect(stale.status).toBe(409);
    expect(stale.body.__errors__[0]).toMatchObject({ code: 'conflict', message: expect.stringContaining('changed since this preview') });
    await w.watcher.idle();
    expect(await w.noteFields()).toEqual(expect.arrayContaining(['body', 'tag']));
    expect((await w.jql({ __meta__: { namespace: 'notes.Note', intent: 'retrieve' }, body: null, tag: null })).body.__payload__).toEqual([{ id: 1, body: 'a body worth keeping', tag: 't' }]);
    expect(w.status.snapshot().pendingDigest).toBe(pending);

    // The previewed one, by an admin's Bearer token: applied, and printed.
    const applied = await w.post('/workspace/apply', { digest: pending }, { authorization: `Bearer ${root}` });
    expect(applied).toEqual({ status: 202, body: { applying: pending } });
    await until(() => (w.out.some((l) => l.startsWith('Workspace applied')) ? true : null), 'the apply');
    await w.watcher.idle();
    expect(w.out).toContain('Applying the previewed workspace: approved in the console.');
    expect(await w.noteFields()).not.toContain('body');
    expect(w.status.snapshot()).toEqual({ error: null, preview: null, changes: null, pendingDigest: null });

    // Nothing pending now: 404.
    const again = await w.post('/workspace/apply', { digest: pending }, { authorization: `Bearer ${root}` });
    expect(again.status).toBe(404);
    expect(again.body.__errors__[0].code).toBe('not_found');
  }, 60_000);

  it('cancels the previewed save: the banner goes, the running workspace stays, the terminal says so', async () => {
    const w = await watched();
    await w.jql({ __meta__: { namespace: 'notes.Note', intent: 'create' }, title: 'kept', body: 'body', tag: 't' });
    const digest = await w.save(fields({ body: { type: 'text', null: true } }));
    const admin = await launchCredential(w.server());
    expect((await w.post('/workspace/cancel', { digest: 'not-this-one' }, admin.headers)).status).toBe(409);
    expect(await w.post('/workspace/cancel', { digest }, admin.headers)).toEqual({ status: 202, body: { cancelled: digest } });
    expect(w.status.snapshot()).toEqual({ error: null, preview: null, changes: null, pendingDigest: null });
    expect(w.out.at(-1)).toContain('cancelled in the console');
    expect(await w.noteFields()).toContain('tag');
    // Cancelled means not applied, ever: applying it now finds nothing pending.
    expect((await w.post('/workspace/apply', { digest }, admin.headers)).status).toBe(404);
    await w.watcher.idle();
    expect(await w.noteFields()).toContain('tag');
  }, 60_000);

  it('is refused on a production server, even to an admin', async () => {
    const status = new WatchStatus();
    const t = await testApp({ production: true, env: ENV, watchStatus: status });
    opened.push(t);
    const root = await t.login('root', 'root-password-1');
    status.attach({ apply: () => expect.unreachable('applied on production'), cancel: () => undefined });
    status.refused('not applied', { text: 'preview', changes: [], pendingDigest: 'd1' });
    const res = await t.app.inject({ method: 'POST', url: '/workspace/apply', headers: { 'content-type': 'application/json', authorization: `Bearer ${root}` }, payload: JSON.stringify({ digest: 'd1' }) });
    expect(res.statusCode).toBe(403);
    expect(JSON.parse(res.body).__errors__[0]).toMatchObject({ code: 'forbidden', message: expect.stringContaining('production') });
    expect(status.snapshot().pendingDigest).toBe('d1');
  });

  it('does not exist without --watch', async () => {
    const t = await testApp();
    opened.push(t);
    const res = await t.app.inject({ method: 'POST', url: '/workspace/apply', headers: { 'content-type': 'application/json' }, payload: '{"digest": "d"}' });
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body).__errors__[0].code).toBe('not_found');
  });
});
