// A workspace applied in place (`serve --watch`, docs/workspace.md "Changing a workspace while it
// runs"): no restart, so connections, sign-ins and stream subscriptions stay; a subscription the
// subscriber may no longer read ends with `forbidden`; nothing the old workspace cached (plans,
// answers) answers for the new one; a refused migration changes nothing; every apply is recorded.
import { Agent, request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_TABLE_CHANGE, restartReason } from './apply-workspace.ts';
import { untracked } from './db/sql-session.ts';
import { writeWorkspace } from './testing/fixture.ts';
import { launchCredential } from './testing/launch.ts';
import { startStreamServer, StreamClient, type StreamServer } from './testing/stream-client.ts';
import { loadWorkspace } from './workspace/resolve.ts';
import type { Workspace } from './workspace/types.ts';
import { workspaceDigest } from './workspace/workspace-digest.ts';

const ADMIN = { username: 'root', password: 'root-password-1' };
const OPEN = { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'] };

function workspaceWith(change: (models: Record<string, any>) => void = () => undefined): unknown {
  const models: Record<string, any> = {
    Note: { fields: { title: { type: 'string', required: true } }, permissions: OPEN },
    Secret: { fields: { text: { type: 'string', required: true } }, permissions: { retrieve: ['agent', 'admin'], create: ['authenticated'] } },
  };
  const own = structuredClone(models);
  change(own);
  return { name: 'live', apps: { notes: { models: own } } };
}

let s: StreamServer;
let file: string;
let admin: string;
let clients: StreamClient[] = [];

beforeEach(async () => {
  file = writeWorkspace(workspaceWith());
  s = await startStreamServer({ workspace: file, env: { JQL_ADMIN: `${ADMIN.username}:${ADMIN.password}` }, localAdmin: true });
  admin = await s.login(ADMIN.username, ADMIN.password);
});
afterEach(async () => {
  for (const client of clients) await client.close();
  clients = [];
  await s.close();
});

/** Writes the workspace file as a save would, reads it back and applies it to the running server. */
async function apply(change: (models: Record<string, any>) => void): Promise<Workspace> {
  writeFileSync(file, JSON.stringify(workspaceWith(change)));
  const ws = loadWorkspace(file);
  await s.server.applyWorkspace(ws);
  return ws;
}

const addPinned = (models: Record<string, any>): void => {
  models.Note.fields.pinned = { type: 'boolean', default: false };
};

async function connect(token?: string): Promise<StreamClient> {
  const client = await StreamClient.connect(s.wsUrl, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  clients.push(client);
  return client;
}

async function member(roles: string[]): Promise<string> {
  const res = await s.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'member', password: 'member-password', roles }, admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return s.login('member', 'member-password');
}

const createNote = async (title: string) => (await s.post({ __meta__: { namespace: 'notes.Note', intent: 'create' }, title })).body.__payload__ as { id: number };

describe('a workspace applied in place', () => {
  it('keeps a stream subscription open, and it receives the next event with the new field', async () => {
    const c = await connect();
    expect(await c.subscribe({ id: 'notes', namespace: 'notes.Note' })).toMatchObject({ type: 'subscribed' });
    const before = await createNote('before');
    expect(await c.events('notes', 1)).toMatchObject([{ record: { id: before.id, title: 'before' } }]);

    await apply(addPinned);
    const after = await createNote('after');
    const events = await c.events('notes', 2);
    expect(events[1]).toMatchObject({ event: 'created', record: { id: after.id, title: 'after', pinned: false } });
    expect(c.messages.filter((m) => m.type === 'error')).toEqual([]);
    expect(c.socket.readyState).toBe(c.socket.OPEN);
  });

  it('ends a subscription whose model the subscriber may no longer read with forbidden, and keeps the others', async () => {
    const token = await member(['agent']);
    const c = await connect(token);
    expect(await c.subscribe({ id: 'secrets', namespace: 'notes.Secret' })).toMatchObject({ type: 'subscribed' });
    expect(await c.subscribe({ id: 'notes', namespace: 'notes.Note' })).toMatchObject({ type: 'subscribed' });

    await apply((models) => {
      models.Secret.permissions.retrieve = ['admin'];
    });
    expect(await c.waitFor((m) => m.type === 'error' && m.id === 'secrets')).toMatchObject({ error: { code: 'forbidden' } });
    await s.post({ __meta__: { namespace: 'notes.Secret', intent: 'create' }, text: 'not for agents' }, admin);
    const note = await createNote('still delivered');
    expect(await c.events('notes', 1)).toMatchObject([{ record: { id: note.id } }]);
    await c.roundTrip();
    expect(c.messages.filter((m) => m.type === 'event' && m.subscription === 'secrets')).toEqual([]);
    expect(c.socket.readyState).toBe(c.socket.OPEN);
  });

  it('keeps sign-ins: a token, the local admin cookie with its page secret, and an open keep-alive connection', async () => {
    const local = await launchCredential(s.server);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let connections = 0;
    const count = (): void => void connections++;
    s.server.app.server.on('connection', count);
    const healthz = () =>
      new Promise<number>((resolve, reject) => {
        request(`${s.server.url}/healthz`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
          .on('error', reject)
          .end();
      });
    try {
      expect(await healthz()).toBe(200);
      await apply(addPinned);
      expect(await healthz()).toBe(200);
      expect(connections).toBe(1);
    } finally {
      s.server.app.server.off('connection', count);
      agent.destroy();
    }
    const users = { __meta__: { namespace: 'system.User', intent: 'count' } };
    expect((await s.post(users, admin)).status).toBe(200);
    const asLocalAdmin = await fetch(`${s.server.url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json', ...local.headers }, body: JSON.stringify(users) });
    expect(asLocalAdmin.status).toBe(200);
  });

  it('never answers from a cached answer or plan of the old workspace', async () => {
    await createNote('one');
    const cachedRead = { __meta__: { namespace: 'notes.Note', intent: 'retrieve', cache: { enabled: true } } };
    expect((await s.post(cachedRead)).body.__payload__).toEqual([{ id: 1, title: 'one' }]);
    expect((await s.post(cachedRead)).body.__extras__).toMatchObject({ cached: true });

    // A nullable field with no default: the migration writes no row, so no commit invalidates the entry.
    await apply((models) => (models.Note.fields.due = { type: 'date', null: true }));
    const fresh = await s.post(cachedRead);
    expect(fresh.body.__payload__).toEqual([{ id: 1, title: 'one', due: null }]);
    expect(fresh.body.__extras__.cached).not.toBe(true);

    // A read of the same shape, answered by a plan, is refused at once once its permission is gone.
    const planned = (title: string) => ({ __meta__: { namespace: 'notes.Note', intent: 'retrieve', filter: { title } } });
    for (const title of ['a', 'b', 'c']) expect((await s.post(planned(title))).status).toBe(200);
    await apply((models) => {
      models.Note.fields.due = { type: 'date', null: true };
      models.Note.permissions.retrieve = ['admin'];
    });
    const refused = await s.post(planned('d'));
    expect(refused.status).toBe(401);
    expect(refused.body.__errors__).toMatchObject([{ code: 'unauthenticated' }]);
    expect((await s.post(cachedRead)).status).toBe(401);
    expect((await s.post(cachedRead, admin)).body.__payload__).toEqual([{ id: 1, title: 'one', due: null }]);
  });

  it('answers across applies what a server without shortcuts (no plans, no answer cache) answers', async () => {
    const plainFile = writeWorkspace(workspaceWith());
    const plain = await startStreamServer({ workspace: plainFile, env: { JQL_ADMIN: `${ADMIN.username}:${ADMIN.password}` }, shortcuts: false });
    try {
      const run = async (server: StreamServer, workspaceFile: string): Promise<unknown[]> => {
        const token = await server.login(ADMIN.username, ADMIN.password);
        const cachedRead = { __meta__: { namespace: 'notes.Note', intent: 'retrieve', cache: { enabled: true } } };
        const planned = (title: string) => ({ __meta__: { namespace: 'notes.Note', intent: 'retrieve', filter: { title } } });
        const applyTo = async (change: (models: Record<string, any>) => void) => {
          writeFileSync(workspaceFile, JSON.stringify(workspaceWith(change)));
          await server.server.applyWorkspace(loadWorkspace(workspaceFile));
        };
        const answers: unknown[] = [];
        const ask = async (body: unknown, as?: string) => {
          const { status, body: answer } = await server.post(body, as);
          answers.push({ status, payload: answer.__payload__, errors: answer.__errors__ });
        };
        await ask({ __meta__: { namespace: 'notes.Note', intent: 'create' }, title: 'a' });
        for (const body of [cachedRead, cachedRead, planned('a'), planned('b')]) await ask(body);
        await applyTo((models) => (models.Note.fields.due = { type: 'date', null: true }));
        for (const body of [cachedRead, planned('a'), planned('c')]) await ask(body);
        await applyTo((models) => {
          models.Note.fields.due = { type: 'date', null: true };
          models.Note.permissions.retrieve = ['admin'];
        });
        for (const body of [cachedRead, planned('a')]) await ask(body);
        for (const body of [cachedRead, planned('a')]) await ask(body, token);
        return answers;
      };
      expect(await run(s, file)).toEqual(await run(plain, plainFile));
    } finally {
      await plain.close();
    }
  });

  it('lets a request in flight finish on the workspace it started on, and applies after it', async () => {
    await createNote('one');
    // A read-only controller that waits, mid-request, until the test lets it go on.
    writeFileSync(join(dirname(file), 'slow.mjs'), `export class Slow {
  static permissions = { read: ['anyone'] };
  static readOnly = ['read'];
  async on_read(ctx) {
    await new Promise((resolve) => globalThis.jqlSlowEntered(resolve));
    return { payload: await ctx.data.retrieve('notes.Note') };
  }
}
`);
    const withSlow = (change: (models: Record<string, any>) => void = () => undefined): Workspace => {
      const ws = workspaceWith(change) as { apps: { notes: Record<string, unknown> } };
      ws.apps.notes.controllers = './slow.mjs';
      writeFileSync(file, JSON.stringify(ws));
      return loadWorkspace(file);
    };
    await s.server.applyWorkspace(withSlow());
    const globals = globalThis as { jqlSlowEntered?: (resume: () => void) => void };
    const entered = new Promise<() => void>((resolve) => (globals.jqlSlowEntered = resolve));
    try {
      const slow = s.post({ __meta__: { namespace: 'notes.Slow', intent: 'read', schema: 'controller' } });
      const resume = await entered;
      // A controller runs in the write gate: the migration queues behind it, and it reads the old shape.
      const applied = s.server.applyWorkspace(withSlow(addPinned));
      resume();
      expect((await slow).body.__payload__).toEqual([{ id: 1, title: 'one' }]);
      await applied;
    } finally {
      delete globals.jqlSlowEntered;
    }
    expect((await s.post({ __meta__: { namespace: 'notes.Note', intent: 'retrieve' } })).body.__payload__).toEqual([{ id: 1, title: 'one', pinned: false }]);
  });

  it('imports a changed controllers module as a new instance', async () => {
    const dir = dirname(file);
    const module = join(dir, 'tools.mjs');
    const version = (n: number) => `export class Info {\n  static permissions = { version: ['anyone'] };\n  static readOnly = ['version'];\n  on_version() { return { payload: ${n} }; }\n}\n`;
    writeFileSync(module, version(1));
    const save = async () => {
      const ws = workspaceWith() as { apps: { notes: Record<string, unknown> } };
      ws.apps.notes.controllers = './tools.mjs';
      writeFileSync(file, JSON.stringify(ws));
      await s.server.applyWorkspace(loadWorkspace(file));
    };
    const ask = async () => (await s.post({ __meta__: { namespace: 'notes.Info', intent: 'version', schema: 'controller' } })).body.__payload__;
    await save();
    expect(await ask()).toBe(1);
    writeFileSync(module, version(2));
    await save();
    expect(await ask()).toBe(2);
  });

  it('changes nothing when the migration is refused', async () => {
    await createNote('holds a row');
    const digest = async () => ((await (await fetch(`${s.server.url}/healthz`)).json()) as { workspace: { digest: string } }).workspace.digest;
    const running = await digest();
    writeFileSync(file, JSON.stringify(workspaceWith((models) => (models.Note.fields.rank = { type: 'integer', required: true }))));
    await expect(s.server.applyWorkspace(loadWorkspace(file))).rejects.toThrow(/needs a "default"/);
    expect(await digest()).toBe(running);
    const read = await s.post({ __meta__: { namespace: 'notes.Note', intent: 'retrieve' } });
    expect(read.body.__payload__, JSON.stringify(read.body)).toEqual([{ id: 1, title: "holds a row" }]);
    const columns = s.server.state.db.read((statements) => untracked(statements).all('PRAGMA table_info("notes.Note")'));
    expect(columns.map((column) => column.name)).not.toContain('rank');
    const migrations = s.server.state.db.read((statements) => untracked(statements).all('SELECT summary FROM jql_migrations'));
    expect(migrations.map((row) => row.summary).join('\n')).not.toContain('rank');
  });

  it('records every applied workspace in jql_migrations with its digest, a change of permissions too', async () => {
    const added = await apply(addPinned);
    const restricted = await apply((models) => {
      addPinned(models);
      models.Note.permissions.create = ['authenticated'];
    });
    const rows = s.server.state.db.read((statements) => untracked(statements).all('SELECT summary, digest FROM jql_migrations ORDER BY id'));
    expect(rows.slice(-2)).toEqual([
      { summary: 'notes.Note.pinned: column added', digest: workspaceDigest(added) },
      { summary: NO_TABLE_CHANGE, digest: workspaceDigest(restricted) },
    ]);
    const health = (await (await fetch(`${s.server.url}/healthz`)).json()) as { workspace: { digest: string } };
    expect(health.workspace.digest).toBe(workspaceDigest(restricted));
  });
});

describe('restartReason', () => {
  it('names the limits read once at start, and nothing else', () => {
    const ws = (limits: Record<string, number>, change: (models: Record<string, any>) => void = () => undefined) => {
      writeFileSync(file, JSON.stringify({ ...(workspaceWith(change) as object), limits }));
      return loadWorkspace(file);
    };
    const running = ws({});
    expect(restartReason(running, ws({ maxNested: 5, maxStreamEvents: 50 }, addPinned))).toBeNull();
    expect(restartReason(running, ws({ maxBodyBytes: 1024, requestsPerMinute: 60 }))).toBe('the limits maxBodyBytes, requestsPerMinute are read once at start');
  });
});
