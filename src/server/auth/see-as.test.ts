// "See as" (docs/protocol.md "See as"): an admin reads as another user and gets exactly that user's
// answer; nobody else may ask, it never writes, and production servers refuse it unless the
// workspace allows it.
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../shared/protocol.ts';
import { runRequest } from '../dispatch/run-request.ts';
import { testApp, writeWorkspace } from '../testing/fixture.ts';
import { REACH_ADMIN, REACH_ADMIN_ENV, REACH_WORKSPACE, passwordOf, seedReach, seededReachServer } from '../testing/reach-workspace.ts';

const projects = (extra: Record<string, unknown> = {}) => ({
  __meta__: { namespace: 'work.Project', intent: 'retrieve', ordering: ['id'], ...extra },
  name: null,
  owner: { username: null },
  client: { name: null },
});

/** The envelope without what only a see-as answer carries, to compare it with the user's own. */
function withoutSeenAs(body: { __extras__: Record<string, unknown> | null }) {
  const { seenAs, ...extras } = body.__extras__ ?? {};
  return { body: { ...body, __extras__: extras }, seenAs };
}

describe('seeAs', () => {
  const seeded = seededReachServer();

  it('answers exactly what the user gets, marked as seen as that user, for every caller kind', async () => {
    for (const user of ['alice', 'bob', 'carol', 'dave'] as const) {
      const own = await seeded.t.post(projects(), { token: await seeded.t.login(user, passwordOf(user)) });
      const seen = await seeded.t.post(projects({ seeAs: user }), { token: seeded.admin });
      expect(seen.status).toBe(own.status);
      const { body, seenAs } = withoutSeenAs(seen.body);
      expect(seenAs).toBe(user);
      expect(body).toEqual({ ...own.body, __extras__: own.body.__extras__ ?? {} });
    }
    // alice sees her own projects only, and a reference to a client outside her scope as missing.
    const alice = await seeded.t.post(projects({ seeAs: 'alice' }), { token: seeded.admin });
    expect(alice.body.__payload__.map((p: { name: string }) => p.name)).toEqual(['Apollo', 'Cygnus', 'Fornax']);
  });

  it('takes the snake_case spelling and a multi-query names the user once, in __root_meta__', async () => {
    const snake = await seeded.t.post(projects({ see_as: 'bob' }), { token: seeded.admin });
    expect(snake.body.__extras__.seenAs).toBe('bob');
    const multi = await seeded.t.post({ __root_meta__: { seeAs: 'bob' }, mine: projects(), count: { __meta__: { namespace: 'work.Project', intent: 'count' } } }, { token: seeded.admin });
    expect(multi.status).toBe(200);
    expect(multi.body.__extras__.seenAs).toBe('bob');
    expect(multi.body.__payload__.count.data).toEqual({ count: 2 });
    const inner = await seeded.t.post({ one: projects({ seeAs: 'bob' }) }, { token: seeded.admin });
    expect(inner.status).toBe(400);
    expect(inner.body.__errors__[0].path).toEqual(['one', '__meta__', 'seeAs']);
  });

  it('refuses anyone but an admin: 403 for a signed-in user, 401 for an anonymous caller', async () => {
    const alice = await seeded.t.login('alice', passwordOf('alice'));
    const asUser = await seeded.t.post(projects({ seeAs: 'bob' }), { token: alice });
    expect(asUser.status).toBe(403);
    expect(asUser.body.__errors__[0]).toMatchObject({ code: 'forbidden', path: ['__meta__', 'seeAs'] });
    expect(asUser.body.__payload__).toBeNull();
    const anonymous = await seeded.t.post(projects({ seeAs: 'bob' }));
    expect(anonymous.status).toBe(401);
    // A plan learned from the admin's see-as read must not answer the anonymous caller instead.
    for (let i = 0; i < 3; i++) await seeded.t.post(projects({ seeAs: 'dave' }), { token: seeded.admin });
    expect((await seeded.t.post(projects({ seeAs: 'dave' }))).status).toBe(401);
  });

  it('follows a revoked admin role at once: the same token may no longer see as anyone', async () => {
    const { t, admin } = seeded;
    const created = await t.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'second-admin', password: 'second-admin-pass-1', roles: ['admin'] }, { token: admin });
    const token = await t.login('second-admin', 'second-admin-pass-1');
    expect((await t.post(projects({ seeAs: 'alice' }), { token })).status).toBe(200);
    await t.post({ __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: created.body.__payload__.id } }, roles: [] }, { token: admin });
    const after = await t.post(projects({ seeAs: 'alice' }), { token });
    expect(after.status).toBe(403);
    expect(after.body.__payload__).toBeNull();
  });

  it('never writes: a write run as another user is refused whole and changes nothing', async () => {
    const before = await seeded.t.post({ __meta__: { namespace: 'work.Project', intent: 'count' } }, { token: seeded.admin });
    const create = await seeded.t.post({ __meta__: { namespace: 'work.Project', intent: 'create', seeAs: 'alice' }, name: 'Ghost' }, { token: seeded.admin });
    expect(create.status).toBe(403);
    expect(create.body.__errors__[0].message).toMatch(/never writes/);
    const remove = await seeded.t.post({ __root_meta__: { seeAs: 'alice' }, r: projects(), d: { __meta__: { namespace: 'work.Project', intent: 'delete', uniqueObject: { id: seeded.ids.projects[0] } } } }, { token: seeded.admin });
    expect(remove.status).toBe(403);
    const after = await seeded.t.post({ __meta__: { namespace: 'work.Project', intent: 'count' } }, { token: seeded.admin });
    expect(after.body.__payload__).toEqual(before.body.__payload__);
  });

  it('names an unknown or disabled user in one sentence', async () => {
    const unknown = await seeded.t.post(projects({ seeAs: 'nobody' }), { token: seeded.admin });
    expect(unknown.status).toBe(404);
    expect(unknown.body.__errors__[0].message).toBe('No user "nobody" to see as');
    await seeded.t.post({ __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: seeded.ids.users.dave } }, is_active: false }, { token: seeded.admin });
    const disabled = await seeded.t.post(projects({ seeAs: 'dave' }), { token: seeded.admin });
    expect(disabled.status).toBe(403);
    await seeded.t.post({ __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: seeded.ids.users.dave } }, is_active: true }, { token: seeded.admin });
    const bad = await seeded.t.post(projects({ seeAs: 7 }), { token: seeded.admin });
    expect(bad.status).toBe(400);
  });

  it('is declared in describe', async () => {
    const res = await seeded.t.post({ __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } });
    expect(res.body.__payload__.extensions).toEqual(['seeAs', 'whyNot']);
  });

  it('hands the route one audit line for each see-as request, naming the admin and the user', async () => {
    const lines: string[] = [];
    const input = { infoLevel: 0 as const, shape: 'standard' as const, credentials: { authorization: `Bearer ${seeded.admin}` }, audit: (line: string) => lines.push(line) };
    await runRequest(seeded.t.state, { ...input, body: projects({ seeAs: 'alice' }) as JsonValue }, () => {});
    await runRequest(seeded.t.state, { ...input, body: projects() as JsonValue }, () => {});
    expect(lines).toEqual([`seeAs: root (id 1) read as alice (id ${seeded.ids.users.alice})`]);
  });
});

describe('seeAs on a production server', () => {
  it('is refused unless the workspace allows it', async () => {
    for (const allowSeeAs of [undefined, true]) {
      const file = writeWorkspace({ ...REACH_WORKSPACE, ...(allowSeeAs ? { allowSeeAs } : {}) });
      const t = await testApp({ workspace: file, env: REACH_ADMIN_ENV, production: true });
      try {
        const admin = await t.login(REACH_ADMIN.username, REACH_ADMIN.password);
        await seedReach((body, token) => t.post(body, { token }), admin);
        const res = await t.post(projects({ seeAs: 'alice' }), { token: admin });
        expect(res.status).toBe(allowSeeAs ? 200 : 403);
        const describe = await t.post({ __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } }, { token: admin });
        expect(describe.body.__payload__.extensions).toEqual(allowSeeAs ? ['seeAs', 'whyNot'] : ['whyNot']);
      } finally {
        await t.close();
      }
    }
  });
});
