// The retrieve cache follows every model a query touches (issue 16 point 2, docs/protocol.md "`__meta__` keys"): a
// change to a model that a filter, exclude, ordering, grouping, aggregate, nested selection or row
// scope reads invalidates the cached answer, not only a change to the selected model. Over a real
// socket: the demo workspace, and a small workspace whose row scopes are bound to the username.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORDS } from '../demo/apply-seed.ts';
import { writeWorkspace } from '../testing/fixture.ts';
import { startStreamServer, type StreamServer } from '../testing/stream-client.ts';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

const cached = (meta: Record<string, unknown>, data: Record<string, unknown> = {}) => ({
  __meta__: { namespace: 'tickets.Ticket', intent: 'retrieve', cache: { enabled: true }, limit: 1000, ...meta },
  ...data,
});

describe('the cache and the models a ticket query joins (demo workspace)', () => {
  let demo: StreamServer;
  let admin: string;
  let viewerId: number;

  beforeAll(async () => {
    demo = await startStreamServer();
    admin = await demo.login('admin', DEMO_PASSWORDS.admin as string);
    const users = await demo.post({ __meta__: { namespace: 'system.User', intent: 'retrieve', filter: { username: 'viewer' } }, id: null }, admin);
    viewerId = users.body.__payload__[0].id;
  });
  afterAll(() => demo.close());

  const rename = async (username: string): Promise<void> => {
    const res = await demo.post({ __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: viewerId } }, username }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  /** Asks twice (the second is a hit), renames the viewer, asks again: a fresh answer, as computed without the cache. */
  async function afterRename(query: Record<string, unknown>): Promise<{ before: any; after: any; uncached: any }> {
    const first = await demo.post(query, admin);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const hit = await demo.post(query, admin);
    expect(hit.body.__extras__.cached).toBe(true);
    await rename('a-viewer');
    try {
      const after = await demo.post(query, admin);
      const meta = (query as { __meta__: Record<string, unknown> }).__meta__;
      const uncached = await demo.post({ ...query, __meta__: { ...meta, cache: { enabled: false } } }, admin);
      expect(after.body.__extras__.cached).toBe(false);
      expect(after.body.__payload__).toEqual(uncached.body.__payload__);
      return { before: first.body, after: after.body, uncached: uncached.body };
    } finally {
      await rename('viewer');
    }
  }

  it('a filter through assignee', async () => {
    const { before, after } = await afterRename(cached({ filter: { 'assignee.username': 'viewer' } }, { id: null }));
    expect(before.__extras__.filtered).toBe(52);
    expect(after.__extras__.filtered).toBe(0);
  });

  it('an exclude through assignee', async () => {
    const { before, after } = await afterRename(cached({ exclude: { assignee__username: 'viewer' } }, { id: null }));
    expect(after.__extras__.filtered).toBe(before.__extras__.filtered + 52);
  });

  it('an ordering through assignee', async () => {
    const { before, after } = await afterRename(cached({ ordering: ['-assignee.username'], filter: { assignee__isnull: false } }, { id: null, assignee: null }));
    expect(after.__payload__).not.toEqual(before.__payload__);
  });

  it('a grouping through assignee', async () => {
    const { after } = await afterRename(cached({ groupBy: ['assignee.username'] }));
    expect(after.__payload__.map((row: any) => row['assignee.username'])).toContain('a-viewer');
  });

  it('an aggregate through assignee', async () => {
    const { after } = await afterRename(cached({ groupBy: { by: ['status'], aggregates: { first: { min: 'assignee.username' } } } }));
    expect(after.__payload__.map((row: any) => row.first)).toContain('a-viewer');
  });

  it('a nested selection of assignee', async () => {
    const { after } = await afterRename(cached({ filter: { assignee: viewerId }, limit: 1 }, { assignee: { username: null } }));
    expect(after.__payload__[0].assignee.username).toBe('a-viewer');
  });

  it('a deleted user clears the assignee of its tickets (ON DELETE SET NULL), and the cache knows', async () => {
    const user = await demo.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'leaving' }, admin);
    const id = user.body.__payload__.id as number;
    for (const ticket of [1, 2]) {
      const res = await demo.post({ __meta__: { namespace: 'tickets.Ticket', intent: 'update', uniqueObject: { id: ticket } }, assignee: id }, admin);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // Only the tickets' own column: the query touches no other model.
    const query = cached({ filter: { assignee: id } }, { id: null });
    expect((await demo.post(query, admin)).body.__extras__).toMatchObject({ filtered: 2, cached: false });
    expect((await demo.post(query, admin)).body.__extras__).toMatchObject({ cached: true });
    const removed = await demo.post({ __meta__: { namespace: 'system.User', intent: 'delete', uniqueObject: { id } } }, admin);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const after = await demo.post(query, admin);
    expect(after.body.__extras__).toMatchObject({ filtered: 0, cached: false });
  });
});

describe('the cache and row scopes bound to the caller', () => {
  const file = writeWorkspace({
    name: 'desk',
    apps: {
      desk: {
        models: {
          Note: {
            fields: { title: { type: 'string', required: true }, to_name: { type: 'string' } },
            permissions: { retrieve: ['reader'], create: ['admin'], scope: { reader: { to_name: '$user.username' } } },
          },
        },
        collections: {
          Inbox: { permissions: { retrieve: ['reader'], create: ['admin'], scope: { reader: { to: '$user.username' } } } },
        },
      },
    },
  });
  const ADMIN = { username: 'root', password: 'root-password-1' };
  let server: StreamServer;
  let admin: string;
  let erin: string;
  let erinId: number;

  beforeAll(async () => {
    server = await startStreamServer({ workspace: file, env: { JQL_ADMIN: `${ADMIN.username}:${ADMIN.password}` } });
    admin = await server.login(ADMIN.username, ADMIN.password);
    const created = await server.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'erin', password: 'erin-password-1', roles: ['reader'] }, admin);
    erinId = created.body.__payload__.id;
    for (const to of ['erin', 'erin', 'erin-new']) {
      expect((await server.post({ __meta__: { namespace: 'desk.Note', intent: 'create' }, title: `for ${to}`, to_name: to }, admin)).status).toBe(200);
      expect((await server.post({ __meta__: { namespace: 'desk.Inbox', intent: 'create', schema: 'nosql' }, to }, admin)).status).toBe(200);
    }
    erin = await server.login('erin', 'erin-password-1');
  });
  afterAll(async () => {
    await server.close();
    rmSync(dirname(file), { recursive: true, force: true });
  });

  it('a rename changes which rows a username scope reaches, for models and collections', async () => {
    const notes = { __meta__: { namespace: 'desk.Note', intent: 'retrieve', cache: { enabled: true } } };
    const inbox = { __meta__: { namespace: 'desk.Inbox', intent: 'retrieve', schema: 'nosql', cache: { enabled: true } } };
    for (const query of [notes, inbox]) {
      expect((await server.post(query, erin)).body.__extras__).toMatchObject({ filtered: 2, cached: false });
      expect((await server.post(query, erin)).body.__extras__).toMatchObject({ filtered: 2, cached: true });
    }
    const rename = await server.post({ __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: erinId } }, username: 'erin-new' }, admin);
    expect(rename.status, JSON.stringify(rename.body)).toBe(200);
    for (const query of [notes, inbox]) {
      expect((await server.post(query, erin)).body.__extras__).toMatchObject({ filtered: 1, cached: false });
    }
  });
});
