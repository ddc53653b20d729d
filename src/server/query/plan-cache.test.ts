// The plan cache (issue 14.2): a read whose shape was seen before skips parsing, checking and
// compiling, but never the values (each request binds its own) and never an authorization that
// depends on the caller (each request's grants are checked against the plan's). Over a real socket.
import { rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStreamServer, type StreamServer } from '../testing/stream-client.ts';
import type { RequestContext } from '../context.ts';
import type { ParsedMeta } from './meta.ts';
import { PlanCache, plansOf } from './plan-cache.ts';
import { runRequest, type RequestAnswer } from '../dispatch/run-request.ts';
import { tempDir, writeWorkspace } from '../testing/fixture.ts';
import { REACH_ADMIN, REACH_ADMIN_ENV, REACH_WORKSPACE, TASKS, passwordOf, seedReach, writeReachWorkspace, type ReachIds, type ReachUser } from '../testing/reach-workspace.ts';

const plans = (s: StreamServer) => plansOf(s.server.state).stats();

describe('a cached plan binds each request’s values', () => {
  let s: StreamServer;
  let workspace: ReturnType<typeof writeReachWorkspace>;
  let admin: string;
  let ids: ReachIds;
  beforeAll(async () => {
    workspace = writeReachWorkspace();
    s = await startStreamServer({ workspace: workspace.file, env: REACH_ADMIN_ENV });
    admin = await s.login(REACH_ADMIN.username, REACH_ADMIN.password);
    ids = await seedReach(s.post, admin);
  });
  afterAll(async () => {
    await s.close();
    workspace.remove();
  });

  const task = (intent: string, meta: Record<string, unknown>, data: Record<string, unknown> = {}) => ({ __meta__: { namespace: 'work.Task', intent, ...meta }, ...data });

  it('reads a different record by id through the same plan', async () => {
    const one = (id: number) => s.post(task('retrieveOne', { uniqueObject: { id } }, { title: null, points: null }));
    const first = await one(3);
    const before = plans(s);
    const second = await one(4);
    const third = await one(3);
    expect(plans(s).hits).toBe(before.hits + 2);
    expect(plans(s).built).toBe(before.built);
    expect(first.body.__payload__).toMatchObject({ id: 3, title: 'write docs' });
    expect(second.body.__payload__).toMatchObject({ id: 4, title: 'review' });
    expect(third.body).toEqual(first.body);
    // The same shape with an id that matches nothing, or an id of the wrong type, answers as without a plan.
    expect((await one(9999)).body.__errors__[0]).toMatchObject({ code: 'not_found' });
    const byX = (meta: Record<string, unknown>) => s.post(task('retrieveOne', { uniqueObject: { id: 'x' }, ...meta }, { title: null, points: null }));
    const planned = await byX({});
    expect(planned.body.__errors__[0]).toMatchObject({ code: 'invalid_request', path: ['unique_object', 'id'] });
    expect(planned.body).toEqual((await byX({ comment: 'a shape of its own' })).body);
  });

  it('answers an anonymous read of a known shape without waiting, and identifies any presented credential first', async () => {
    const query = task('retrieveOne', { uniqueObject: { id: 4 } }, { title: null, points: null });
    const overHttp = await s.post(query);
    expect(overHttp.status).toBe(200);
    const input = { body: query, infoLevel: 0, shape: 'standard', credentials: {} } as const;
    const before = plans(s);
    const anonymous = runRequest(s.server.state, input, () => undefined);
    expect(anonymous).not.toBeInstanceOf(Promise);
    expect((anonymous as RequestAnswer).body).toEqual(overHttp.body);
    expect(plans(s).hits).toBe(before.hits + 1);
    // The same shape with a credential waits for identify(): a refused one is refused, never read as anonymous.
    const refused = runRequest(s.server.state, { ...input, credentials: { authorization: 'Bearer not-a-token' } }, () => undefined);
    expect(refused).toBeInstanceOf(Promise);
    expect((await refused).status).toBe(401);
    const asAdmin = await runRequest(s.server.state, { ...input, credentials: { authorization: `Bearer ${admin}` } }, () => undefined);
    expect(asAdmin.body).toEqual(overHttp.body);
  });

  it('filters, pages and counts with each request’s own values', async () => {
    const page = (done: boolean, min: number, offset: number) =>
      s.post(task('retrieve', { filter: { done, points__gte: min }, ordering: ['-points', 'id'], limit: 3, offset }, { title: null, points: null, done: null }));
    const count = (done: boolean, min: number) => s.post(task('count', { filter: { done, points__gte: min } }));
    const expected = (done: boolean, min: number) =>
      TASK_ROWS.filter((t) => t.done === done && t.points !== null && t.points >= min).sort((a, b) => (b.points as number) - (a.points as number) || a.id - b.id);
    await page(true, 0, 0);
    await count(true, 0);
    const before = plans(s);
    for (const [done, min, offset] of [[false, 4, 0], [true, 2, 1], [false, 0, 3]] as const) {
      const res = await page(done, min, offset);
      expect(res.body.__payload__).toEqual(expected(done, min).slice(offset, offset + 3).map(({ id, title, points }) => ({ id, title, points, done })));
      expect(res.body.__extras__).toMatchObject({ filtered: expected(done, min).length, limit: 3, offset });
      expect((await count(done, min)).body.__payload__).toEqual({ count: expected(done, min).length });
    }
    expect(plans(s).hits).toBe(before.hits + 6);
    // Values the plan's own checks refuse: answered exactly as by the full path (a new shape, with a comment).
    const bad = (meta: Record<string, unknown>) =>
      s.post(task('retrieve', { filter: { done: 'yes', points__gte: 'many' }, ordering: ['-points', 'id'], limit: 3, offset: 0, ...meta }, { title: null, points: null, done: null }));
    const planned = await bad({});
    expect(planned.status).toBe(400);
    expect(planned.body.__errors__[0]).toMatchObject({ path: ['filter', 'done'] });
    expect(planned.body).toEqual((await bad({ comment: 'a shape of its own' })).body);
  });

  const as = async (user: ReachUser) => s.login(user, passwordOf(user));
  const projectNames = (res: { body: any }) => (res.body.__payload__ as Array<{ name: string }>).map((p) => p.name).sort();

  it('never lets a caller with a row scope reuse the plan of a caller with another scope', async () => {
    const projects = (token: string) => s.post({ __meta__: { namespace: 'work.Project', intent: 'retrieve', ordering: ['name'] }, name: null }, token);
    const carol = await as('carol');
    expect(projectNames(await projects(carol))).toEqual(['Apollo', 'Borealis', 'Cygnus', 'Draco', 'Eridanus', 'Fornax']);
    expect(projectNames(await projects(carol))).toHaveLength(6);
    // Alice and Bob share a role whose scope is bound to each of them.
    expect(projectNames(await projects(await as('alice')))).toEqual(['Apollo', 'Cygnus', 'Fornax']);
    expect(projectNames(await projects(await as('bob')))).toEqual(['Borealis', 'Draco']);
    // Each of them, asking again, is answered by a plan: the one made for their own grants.
    const before = plans(s);
    expect(projectNames(await projects(await as('alice')))).toEqual(['Apollo', 'Cygnus', 'Fornax']);
    expect(projectNames(await projects(carol))).toHaveLength(6);
    expect(projectNames(await projects(await as('bob')))).toEqual(['Borealis', 'Draco']);
    expect(plans(s)).toMatchObject({ hits: before.hits + 3, built: before.built });
    // Anonymous and role-less callers are refused, plan or not.
    expect((await s.post({ __meta__: { namespace: 'work.Project', intent: 'retrieve', ordering: ['name'] }, name: null })).status).toBe(401);
    expect((await projects(await as('dave'))).status).toBe(403);
  });

  it('still refuses a path through a model the caller may not read, once an allowed caller cached the plan', async () => {
    const carol = await as('carol');
    const dave = await as('dave');
    const byProject = (token?: string) => s.post(task('retrieve', { filter: { 'project.name': 'Apollo' }, ordering: ['id'] }, { title: null }), token);
    const nested = (token?: string) => s.post(task('retrieveOne', { uniqueObject: { id: 1 } }, { title: null, project: { name: null } }), token);
    const throughClient = (token?: string) => s.post(task('count', { filter: { project__client__rating__gte: 1 } }), token);
    for (let i = 0; i < 2; i++) {
      expect((await byProject(carol)).status).toBe(200);
      expect((await nested(carol)).status).toBe(200);
    }
    const before = plans(s);
    for (const res of [await byProject(), await nested(), await throughClient()]) expect(res.body.__errors__[0].code).toBe('unauthenticated');
    for (const res of [await byProject(dave), await nested(dave)]) expect(res.body.__errors__[0].code).toBe('forbidden');
    // Carol may read projects but not clients: the count through a client is refused for her too.
    expect((await throughClient(carol)).body.__errors__[0]).toMatchObject({ code: 'forbidden', path: ['filter', 'project__client__rating__gte'] });
    expect(plans(s).hits).toBe(before.hits);
    // A member sees a task's project only when it is hers, and filters only through her projects.
    const alice = await as('alice');
    expect((await nested(alice)).body.__payload__.project).toEqual({ id: ids.projects[0], name: 'Apollo' });
    expect((await nested(await as('bob'))).body.__payload__.project).toBeNull();
    expect((await byProject(await as('bob'))).body.__payload__).toEqual([]);
  });
});

/** The seeded tasks as a reader with every grant sees them (ids follow the seed's order). */
const TASK_ROWS = TASKS.map((t, i) => ({ id: i + 1, title: t.title, points: t.points, done: t.done }));

describe('plans and the workspace', () => {
  it('are made again when the workspace changes', async () => {
    const dir = tempDir('jql-plans-');
    const file = writeWorkspace(REACH_WORKSPACE, dir);
    const dataDir = tempDir('jql-plans-data-');
    const tasks = { __meta__: { namespace: 'work.Task', intent: 'retrieve', filter: { points__gte: 1 } }, title: null, points: null };
    try {
      const first = await startStreamServer({ workspace: file, dataDir, env: REACH_ADMIN_ENV });
      try {
        const admin = await first.login(REACH_ADMIN.username, REACH_ADMIN.password);
        await first.post({ __meta__: { namespace: 'work.Task', intent: 'create' }, title: 't', points: 3 }, admin);
        await first.post(tasks);
        expect((await first.post(tasks)).body.__payload__).toEqual([{ id: 1, title: 't', points: 3 }]);
        expect(plansOf(first.server.state).stats().hits).toBeGreaterThan(0);
      } finally {
        await first.close();
      }
      // The same data under a workspace where tasks are for members only: anonymous is refused.
      const changed = structuredClone(REACH_WORKSPACE) as any;
      changed.apps.work.models.Task.permissions.retrieve = ['member'];
      writeFileSync(file, JSON.stringify(changed));
      const second = await startStreamServer({ workspace: file, dataDir, env: REACH_ADMIN_ENV });
      try {
        expect((await second.post(tasks)).status).toBe(401);
        expect((await second.post(tasks)).status).toBe(401);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the plan cache’s bound', () => {
  it('keeps at most its number of shapes, the least recently used going first', () => {
    const cache = new PlanCache(3);
    const plan = { plan: { admits: () => true, bind: () => () => ({ payload: null }) }, meta: {} as ParsedMeta };
    for (const shape of ['a', 'b', 'c']) cache.learn(shape, plan);
    expect(cache.knows('a')).toBe(true);
    cache.bind('a', {} as RequestContext, {});
    cache.learn('d', plan);
    expect(cache.stats().size).toBe(3);
    expect(['a', 'b', 'c', 'd'].filter((shape) => cache.knows(shape))).toEqual(['a', 'c', 'd']);
  });
});
