// A write's references are no oracle (docs/protocol.md "Permissions and row scopes"): a reference to a
// row the caller may not read (its model closed to the caller's roles, or the row outside the caller's
// row scope) is refused exactly as a reference to a row that does not exist, and nothing is written.
// Over a real socket, on the reach workspace plus a model any signed-in caller may create.
import { dirname } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeWorkspace } from '../testing/fixture.ts';
import { startStreamServer, type StreamServer } from '../testing/stream-client.ts';
import { PROJECTS, REACH_ADMIN, REACH_ADMIN_ENV, REACH_WORKSPACE, passwordOf, seedReach, type ReachIds } from '../testing/reach-workspace.ts';

const WORKSPACE = {
  ...REACH_WORKSPACE,
  apps: {
    work: {
      models: {
        ...REACH_WORKSPACE.apps.work.models,
        Note: {
          fields: {
            text: { type: 'string', required: true },
            project: { type: 'ref', to: 'work.Project', null: true },
            client: { type: 'ref', to: 'work.Client', null: true },
          },
          permissions: { retrieve: ['authenticated'], create: ['authenticated'], update: ['authenticated'], delete: ['admin'] },
        },
      },
    },
  },
};

describe('references a caller may not read', () => {
  let server: StreamServer;
  let ids: ReachIds;
  let admin: string;
  let alice: string;
  let dave: string;
  const file = writeWorkspace(WORKSPACE);
  const note = (data: Record<string, unknown>) => ({ __meta__: { namespace: 'work.Note', intent: 'create' }, text: 'hello', ...data });
  const notes = async () => (await server.post({ __meta__: { namespace: 'work.Note', intent: 'count' } }, admin)).body.__payload__.count as number;
  const missing = 987_654;

  beforeAll(async () => {
    server = await startStreamServer({ workspace: file, env: REACH_ADMIN_ENV });
    admin = await server.login(REACH_ADMIN.username, REACH_ADMIN.password);
    ids = await seedReach(server.post, admin);
    alice = await server.login('alice', passwordOf('alice'));
    dave = await server.login('dave', passwordOf('dave'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dirname(file), { recursive: true, force: true });
  });

  /** The error with its request-specific id taken out, so answers about two ids compare. */
  const refusal = (res: { status: number; body: any }, id: number) => ({
    status: res.status,
    errors: JSON.parse(JSON.stringify(res.body.__errors__).replaceAll(String(id), 'N')),
  });

  it('answers a row outside the caller\'s scope as one that does not exist', async () => {
    const bobs = ids.projects[PROJECTS.findIndex((p) => p.owner === 'bob')] as number;
    const own = ids.projects[PROJECTS.findIndex((p) => p.owner === 'alice')] as number;
    const before = await notes();
    const outside = await server.post(note({ project: bobs }), alice);
    const absent = await server.post(note({ project: missing }), alice);
    expect(outside.status, JSON.stringify(outside.body)).toBe(422);
    expect(outside.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'project' });
    expect(refusal(outside, bobs)).toEqual(refusal(absent, missing));
    expect(await notes()).toBe(before);
    // The same caller may reference a row of its own scope.
    expect((await server.post(note({ project: own }), alice)).status).toBe(200);
  });

  it('answers a row of a model the caller may not read at all as one that does not exist', async () => {
    const client = ids.clients[0] as number;
    const before = await notes();
    const closed = await server.post(note({ client }), dave);
    const absent = await server.post(note({ client: missing }), dave);
    expect(closed.status, JSON.stringify(closed.body)).toBe(422);
    expect(refusal(closed, client)).toEqual(refusal(absent, missing));
    expect(await notes()).toBe(before);
    // An admin reads every client, so may reference it.
    expect((await server.post(note({ client }), admin)).status).toBe(200);
  });

  it('applies the same rule to an update', async () => {
    const created = await server.post(note({}), alice);
    const id = created.body.__payload__.id as number;
    const bobs = ids.projects[PROJECTS.findIndex((p) => p.owner === 'bob')] as number;
    const res = await server.post({ __meta__: { namespace: 'work.Note', intent: 'update', uniqueObject: { id } }, project: bobs }, alice);
    expect(res.status).toBe(422);
    const after = await server.post({ __meta__: { namespace: 'work.Note', intent: 'retrieveOne', uniqueObject: { id } }, project: null }, admin);
    expect(after.body.__payload__.project).toBeNull();
  });
});
