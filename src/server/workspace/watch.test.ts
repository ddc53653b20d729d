// `serve --watch`: a save that adds a field is applied at once, in place (sign-ins stay), a limit read
// once at start is applied by a restart on the same port, a broken save keeps
// the running workspace and says where the file is wrong, and a save that would stop serving stored
// values prints the preview and changes nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, writeWorkspace } from '../testing/fixture.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const WORKSPACE = {
  name: 'notes',
  apps: { notes: { models: { Note: { fields: { title: { type: 'string', required: true }, body: { type: 'text', null: true } }, permissions: { retrieve: ['anyone'], create: ['anyone'] } } } } },
};
type Raw = { apps: { notes: { models: { Note: { fields: Record<string, unknown> } } } } };

let child: ChildProcess | null = null;
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

async function until<T>(read: () => Promise<T | null>, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => null);
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('jql-console serve --watch', () => {
  it('applies an added field, keeps the workspace on a broken save, and previews a lossy one without applying it', async () => {
    const dir = tempDir('jql-watch-');
    const file = writeWorkspace(WORKSPACE, dir);
    // Named relative to the folder it runs in; the console is shown the file's name alone either way.
    child = spawn(process.execPath, [join(root, 'bin', 'jql-console.mjs'), 'serve', '--workspace', basename(file), '--data', join(dir, 'data'), '--port', '0', '--watch'], {
      cwd: dir,
      env: { ...process.env, JQL_ADMIN: 'root:root-password-1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk) => (out += String(chunk)));
    child.stderr?.on('data', (chunk) => (err += String(chunk)));
    const url = await until(async () => /listening on (\S+)/.exec(out)?.[1] ?? null, 'listening line');
    const post = async (body: unknown, token?: string) => {
      const res = await fetch(`${url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { __payload__: any } };
    };
    const fieldsOf = async () => Object.keys((await post({ __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } })).body.__payload__.apps.notes.models.Note.fields);
    type Health = { workspace: { digest: string }; watch: { error: string | null; preview: string | null; changes: unknown; pendingDigest: string | null } };
    const health = async () => (await (await fetch(`${url}/healthz`)).json()) as Health;
    const first = await health();
    expect(first.watch).toEqual({ error: null, preview: null, changes: null, pendingDigest: null });
    const token = (await post({ __meta__: { namespace: 'system.User', intent: 'login', schema: 'controller' }, username: 'root', password: 'root-password-1' })).body.__payload__.token as string;
    await post({ __meta__: { namespace: 'notes.Note', intent: 'create' }, title: 'kept', body: 'a body worth keeping' });

    // An added field: applied at once, the sign-in still good.
    const added = structuredClone(WORKSPACE) as Raw;
    added.apps.notes.models.Note.fields.pinned = { type: 'boolean', default: false };
    writeFileSync(file, JSON.stringify(added, null, 2));
    await until(async () => ((await fieldsOf()).includes('pinned') ? true : null), 'the new field in describe');
    expect((await post({ __meta__: { namespace: 'system.User', intent: 'count' } }, token)).status).toBe(200);
    expect(out).toContain('add     notes.Note.pinned: new field');
    expect(out).not.toContain('Restarting the server');
    const applied = await health();
    expect(applied.workspace.digest).not.toBe(first.workspace.digest);
    expect(applied.watch).toEqual({ error: null, preview: null, changes: null, pendingDigest: null });

    // A broken save: the server keeps answering with the workspace it runs, and says where.
    writeFileSync(file, '{\n  "apps": {\n    "notes": \n');
    await until(async () => (err.includes('was not applied') ? true : null), 'the broken-save message');
    expect(err).toMatch(/not valid JSON/);
    expect(await fieldsOf()).toContain('pinned');
    const broken = await health();
    expect(broken.workspace.digest).toBe(applied.workspace.digest);
    expect(broken.watch.error).toMatch(new RegExp(`^The workspace was not applied; the server keeps the one it runs: Invalid workspace ${basename(file)}:4:1: not valid JSON: the file ends where `));
    expect(broken.watch.error).not.toContain(dir);
    expect(broken.watch.preview).toBeNull();

    // A removed field that holds values: previewed, not applied.
    delete added.apps.notes.models.Note.fields.body;
    writeFileSync(file, JSON.stringify(added, null, 2));
    await until(async () => (out.includes('LOSES') ? true : null), 'the preview');
    expect(out).toContain('LOSES   notes.Note.body: field removed: 1 rows hold values that would no longer be served');
    expect(err).toContain('Apply it from the console, or start with --allow-destructive');
    expect(await fieldsOf()).toContain('body');
    const note = await post({ __meta__: { namespace: 'notes.Note', intent: 'retrieve' }, body: null });
    expect(note.body.__payload__).toEqual([{ id: 1, body: 'a body worth keeping' }]);
    const lossy = await health();
    expect(lossy.watch.error).toContain('it would stop serving stored values');
    expect(lossy.watch.preview).toContain('LOSES   notes.Note.body: field removed: 1 rows hold values');
    expect(lossy.workspace.digest).toBe(applied.workspace.digest);
    // The console may apply it (POST /workspace/apply) by this digest, and shows each change with its rows.
    expect(lossy.watch.pendingDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(lossy.watch.changes).toEqual([expect.objectContaining({ kind: 'lossy', target: 'notes.Note.body', rows: 1, sample: ['a body worth keeping'] })]);

    // Back to the running workspace: applied (nothing to change), and the banner's cause is gone.
    writeFileSync(file, JSON.stringify({ ...added, apps: { notes: { models: { Note: { ...added.apps.notes.models.Note, fields: { ...added.apps.notes.models.Note.fields, body: { type: 'text', null: true } } } } } } }, null, 2));
    await until(async () => ((await health()).watch.error === null ? true : null), 'the cleared watch error');

    // A limit the HTTP layer reads once at start: applied by starting again on the same port.
    const restored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...restored, limits: { maxBodyBytes: 4096 } }, null, 2));
    await until(async () => (out.includes('Workspace applied') && out.includes('Restarting the server: the limits maxBodyBytes are read once at start.') ? true : null), 'the restart');
    await until(async () => ((await post({ __meta__: { namespace: 'notes.Note', intent: 'create' }, title: 'x'.repeat(5000) })).status === 413 ? true : null), 'the new body limit');
    expect((await post({ __meta__: { namespace: 'system.User', intent: 'count' } }, token)).status).toBe(200);
  }, 90_000);

  it('imports a changed controllers module as a new instance, without a restart by hand', async () => {
    const dir = tempDir('jql-watch-code-');
    const file = writeWorkspace({ name: 'code', apps: { code: { controllers: './controllers.mjs', models: {} } } }, dir);
    const module = join(dir, 'controllers.mjs');
    const version = (n: number) => `export class Info {\n  static permissions = { version: ['anyone'] };\n  static readOnly = ['version'];\n  on_version() { return { payload: { version: ${n} } }; }\n}\n`;
    writeFileSync(module, version(1));
    const code = spawn(process.execPath, [join(root, 'bin', 'jql-console.mjs'), 'serve', '--workspace', file, '--data', join(dir, 'data'), '--port', '0', '--watch'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      code.stdout?.on('data', (chunk) => (out += String(chunk)));
      const url = await until(async () => /listening on (\S+)/.exec(out)?.[1] ?? null, 'listening line');
      const version_ = async () => {
        const res = await fetch(`${url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ __meta__: { namespace: 'code.Info', intent: 'version', schema: 'controller' } }) });
        return ((await res.json()) as { __payload__: { version: number } | null }).__payload__?.version ?? null;
      };
      expect(await version_()).toBe(1);
      writeFileSync(module, version(2));
      await until(async () => ((await version_()) === 2 ? true : null), 'the new controller code');
    } finally {
      const exited = new Promise((resolve) => code.once('exit', resolve));
      code.kill('SIGTERM');
      await exited;
    }
  }, 90_000);
});
