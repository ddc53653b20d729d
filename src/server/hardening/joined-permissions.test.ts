// Permissions hold at every hop of every path (docs/protocol.md "Field selection", "Permissions and row scopes", "Streams"): a filter, exclude, ordering,
// grouping, aggregate or stream filter that crosses a reference into a model the caller may not read
// is refused before anything runs, and a hop into a scoped model sees only the caller's rows of it.
// Over a real socket, against the demo workspace and against a workspace with row scopes two
// references deep (testing/reach-workspace.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStreamServer, StreamClient, type StreamServer } from '../testing/stream-client.ts';
import { DEMO_PASSWORDS } from '../demo/apply-seed.ts';
import { PROJECTS, REACH_ADMIN, REACH_ADMIN_ENV, TASKS, passwordOf, seedReach, writeReachWorkspace, type ReachIds } from '../testing/reach-workspace.ts';

const ticket = (intent: string, meta: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
  __meta__: { namespace: 'tickets.Ticket', intent, ...meta },
  ...data,
});

/** A refusal that ran nothing: the code, the status, the path in the request, no payload. */
function expectRefused(res: { status: number; body: any }, code: 'unauthenticated' | 'forbidden', path: Array<string | number>): void {
  expect(res.status, JSON.stringify(res.body)).toBe(code === 'unauthenticated' ? 401 : 403);
  expect(res.body.__payload__).toBeNull();
  expect(res.body.__errors__[0]).toMatchObject({ code, path });
  expect(res.body.__extras__.queries).toBe(0);
}

describe('the demo workspace: system.User is for signed-in callers only', () => {
  let demo: StreamServer;
  beforeAll(async () => {
    demo = await startStreamServer();
  });
  afterAll(() => demo.close());

  it('refuses an anonymous groupBy through assignee', async () => {
    const res = await demo.post(ticket('retrieve', { groupBy: ['assignee.email', 'assignee.username', 'assignee.roles'] }));
    expectRefused(res, 'unauthenticated', ['__meta__', 'group_by', 0]);
    expect(res.body.__errors__[0].field).toBe('assignee.email');
    expect(JSON.stringify(res.body)).not.toContain('@example.com');
  });

  it('refuses an anonymous filter through assignee, in a count and in a retrieve', async () => {
    expectRefused(await demo.post(ticket('count', { filter: { assignee__email__startswith: 'a' } })), 'unauthenticated', ['filter', 'assignee__email__startswith']);
    expectRefused(await demo.post(ticket('retrieve', { filter: { 'assignee.username': 'viewer' } })), 'unauthenticated', ['filter', 'assignee.username']);
  });

  it('refuses an anonymous exclude through assignee', async () => {
    expectRefused(await demo.post(ticket('count', { exclude: { assignee__email__startswith: 'a' } })), 'unauthenticated', ['exclude', 'assignee__email__startswith']);
  });

  it('refuses an anonymous ordering through assignee', async () => {
    expectRefused(await demo.post(ticket('retrieve', { ordering: ['status', '-assignee.email'], limit: 2 })), 'unauthenticated', ['ordering', 1]);
  });

  it('refuses an anonymous aggregate through assignee', async () => {
    const res = await demo.post(ticket('retrieve', { groupBy: { by: ['status'], aggregates: { m: { max: 'assignee.email' } } } }));
    expectRefused(res, 'unauthenticated', ['__meta__', 'group_by', 'aggregates', 'm']);
  });

  it('refuses an anonymous retrieveOne whose uniqueObject goes through assignee', async () => {
    const res = await demo.post(ticket('retrieveOne', { uniqueObject: { id: 1, 'assignee.username': 'viewer' } }));
    expectRefused(res, 'unauthenticated', ['unique_object', 'assignee.username']);
  });

  it('refuses an anonymous stream subscription whose filter goes through assignee', async () => {
    const client = await StreamClient.connect(demo.wsUrl);
    try {
      const answer = await client.subscribe({ id: 's1', namespace: 'tickets.Ticket', filter: { assignee__email__startswith: 'a' } });
      expect(answer).toMatchObject({ type: 'error', id: 's1', error: { code: 'unauthenticated' } });
      // The same subscription without the path is allowed: the refusal is about the hop.
      expect(await client.subscribe({ id: 's2', namespace: 'tickets.Ticket', filter: { status: 'open' } })).toMatchObject({ type: 'subscribed' });
    } finally {
      await client.close();
    }
  });

  it('still answers paths through models the caller may read', async () => {
    const token = await demo.login('viewer', DEMO_PASSWORDS.viewer as string);
    const grouped = await demo.post(ticket('retrieve', { groupBy: ['assignee.username'], filter: { assignee__isnull: false } }), token);
    expect(grouped.status).toBe(200);
    expect(grouped.body.__payload__.map((row: any) => row['assignee.username'])).toEqual(['admin', 'agent', 'viewer']);
    const anonymous = await demo.post(ticket('retrieve', { groupBy: ['status'], ordering: ['-count'] }));
    expect(anonymous.status).toBe(200);
  });
});

describe('row scopes of joined models', () => {
  let server: StreamServer;
  let ids: ReachIds;
  let alice: string;
  let carol: string;
  let dave: string;
  let admin: string;
  const workspace = writeReachWorkspace();
  const task = (intent: string, meta: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
    __meta__: { namespace: 'work.Task', intent, ...meta },
    ...data,
  });

  beforeAll(async () => {
    server = await startStreamServer({ workspace: workspace.file, env: REACH_ADMIN_ENV });
    admin = await server.login(REACH_ADMIN.username, REACH_ADMIN.password);
    ids = await seedReach(server.post, admin);
    alice = await server.login('alice', passwordOf('alice'));
    carol = await server.login('carol', passwordOf('carol'));
    dave = await server.login('dave', passwordOf('dave'));
  });
  afterAll(async () => {
    await server.close();
    workspace.remove();
  });

  const aliceOwns = new Set(PROJECTS.flatMap((project, index) => (project.owner === 'alice' ? [index] : [])));
  /** Task indexes (= id - 1) whose project alice may read. */
  const tasksOf = (predicate: (project: number | null) => boolean) => TASKS.flatMap((t, index) => (predicate(t.project) ? [index + 1] : []));

  it('a member groups only by the projects it owns; the others read as NULL', async () => {
    const res = await server.post(task('retrieve', { groupBy: ['project.name'] }), alice);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const names = res.body.__payload__.map((row: any) => row['project.name']);
    expect(names).toEqual([null, 'Apollo', 'Cygnus', 'Fornax']);
    const nullGroup = res.body.__payload__[0].count;
    expect(nullGroup).toBe(tasksOf((p) => p === null || !aliceOwns.has(p)).length);
  });

  it('a member groups two references deep only by the clients it may read', async () => {
    const res = await server.post(task('retrieve', { groupBy: ['project.client.name', 'project.client.tier'] }), alice);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Apollo's client is gold (Acme); Cygnus's and Fornax's are not gold, so they read as NULL.
    expect(res.body.__payload__.map((row: any) => row['project.client.name'])).toEqual([null, 'Acme']);
  });

  it('a member filters and counts only through its own projects', async () => {
    const borealis = await server.post(task('count', { filter: { 'project.name': 'Borealis' } }), alice);
    expect(borealis.body.__payload__).toEqual({ count: 0 });
    const prefix = await server.post(task('count', { filter: { project__name__startswith: 'B' } }), alice);
    expect(prefix.body.__payload__).toEqual({ count: 0 });
    const deep = await server.post(task('count', { filter: { 'project.client.tier': 'silver' } }), alice);
    expect(deep.body.__payload__).toEqual({ count: 0 });
    const own = await server.post(task('count', { filter: { 'project.name': 'Apollo' } }), alice);
    expect(own.body.__payload__).toEqual({ count: tasksOf((p) => p === 0).length });
  });

  it('a member excludes only through its own projects', async () => {
    // An exclude never removes a record whose value is NULL, and another owner's project reads as NULL.
    const res = await server.post(task('count', { exclude: { 'project.name': 'Borealis' } }), alice);
    expect(res.body.__payload__).toEqual({ count: TASKS.length });
  });

  it('a member orders by its own projects only', async () => {
    const res = await server.post(task('retrieve', { ordering: ['project.name'], limit: 100 }, { id: null }), alice);
    const order = res.body.__payload__.map((row: any) => row.id);
    const nameOf = (id: number) => {
      const project = TASKS[id - 1]?.project;
      return project === null || project === undefined || !aliceOwns.has(project) ? '' : (PROJECTS[project]?.name as string);
    };
    const expected = TASKS.map((_, index) => index + 1).sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : a - b));
    expect(order).toEqual(expected);
  });

  it('a member aggregates over its own projects only', async () => {
    const res = await server.post(task('retrieve', { groupBy: { by: ['done'], aggregates: { low: { min: 'project.budget' }, high: { max: 'project.budget' } } } }), alice);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const budgets = PROJECTS.filter((p) => p.owner === 'alice' && p.budget !== null).map((p) => p.budget as number);
    for (const row of res.body.__payload__) {
      if (row.low !== null) expect(budgets).toContain(row.low);
      if (row.high !== null) expect(budgets).toContain(row.high);
    }
    expect(res.body.__payload__.some((row: any) => row.low === 100)).toBe(true);
  });

  it('refuses callers without retrieve on a model a path enters, per hop', async () => {
    // carol (auditor) reads every project but no client; dave reads no project; anonymous no user.
    expectRefused(await server.post(task('retrieve', { groupBy: ['project.client.name'] }), carol), 'forbidden', ['__meta__', 'group_by', 0]);
    expect((await server.post(task('retrieve', { groupBy: ['project.name'] }), carol)).status).toBe(200);
    expectRefused(await server.post(task('count', { filter: { 'project.budget__gte': 1 } }), dave), 'forbidden', ['filter', 'project.budget__gte']);
    expect((await server.post(task('count', { filter: { 'project.owner.username': 'alice' } }), carol)).status).toBe(200);
    expectRefused(await server.post(task('retrieve', { ordering: ['-project.owner.username'] })), 'unauthenticated', ['ordering', 0]);
  });

  it("a member's stream filter only matches through its own projects", async () => {
    const client = await StreamClient.connect(server.wsUrl, { headers: { authorization: `Bearer ${alice}` } });
    try {
      expect(await client.subscribe({ id: 'other', namespace: 'work.Task', filter: { 'project.name': 'Borealis' } })).toMatchObject({ type: 'subscribed' });
      expect(await client.subscribe({ id: 'own', namespace: 'work.Task', filter: { 'project.name': 'Apollo' } })).toMatchObject({ type: 'subscribed' });
      const borealis = ids.projects[1] as number;
      const apollo = ids.projects[0] as number;
      expect((await server.post(task('create', {}, { title: 'in borealis', project: borealis }), admin)).status).toBe(200);
      expect((await server.post(task('create', {}, { title: 'in apollo', project: apollo }), admin)).status).toBe(200);
      const [own] = await client.events('own', 1);
      expect(own.record.title).toBe('in apollo');
      // Events arrive in commit order: the Borealis one would have come first.
      await client.roundTrip();
      expect(client.messages.filter((m) => m.type === 'event' && m.subscription === 'other')).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('refuses an anonymous stream filter through a model only members read', async () => {
    const client = await StreamClient.connect(server.wsUrl);
    try {
      const answer = await client.subscribe({ id: 's', namespace: 'work.Task', filter: { 'project.name': 'Apollo' } });
      expect(answer).toMatchObject({ type: 'error', error: { code: 'unauthenticated' } });
    } finally {
      await client.close();
    }
  });
});
