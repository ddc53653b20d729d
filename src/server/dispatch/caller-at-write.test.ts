// Issue 29.5: a write is authorized as its caller stands when the write runs, not when it queued. A
// delete sent while another transaction holds the write gate, and that transaction takes the caller's
// admin role away (or disables the account), is refused after that commit, and the record stays.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir, testApp, writeWorkspace, type TestApp } from '../testing/fixture.ts';

const WORKSPACE = {
  name: 'gatekeeping',
  apps: {
    vault: {
      models: {
        Doc: {
          fields: { title: { type: 'string', required: true } },
          permissions: { retrieve: ['admin'], create: ['admin'], update: ['admin'], delete: ['admin'] },
        },
      },
    },
  },
};

let t: TestApp;
let root: string;
let opsId: number;
let ops: string;

beforeAll(async () => {
  t = await testApp({ workspace: writeWorkspace(WORKSPACE), dataDir: tempDir(), env: { JQL_ADMIN: 'root:root-password-1' } });
  root = await t.login('root', 'root-password-1');
  const created = await t.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'ops', password: 'ops-password-1', roles: ['admin'] }, { token: root });
  expect(created.status).toBe(200);
  opsId = created.body.__payload__.id as number;
});
afterAll(() => t.close());

beforeEach(async () => {
  const restored = await t.post({ __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: opsId } }, roles: ['admin'], is_active: true }, { token: root });
  expect(restored.status).toBe(200);
  ops = await t.login('ops', 'ops-password-1');
});

async function newDoc(): Promise<number> {
  const res = await t.post({ __meta__: { namespace: 'vault.Doc', intent: 'create' }, title: 'keep me' }, { token: root });
  expect(res.status).toBe(200);
  return res.body.__payload__.id as number;
}

/**
 * Holds the write gate with a transaction that runs `change` on system.User, sends ops's delete of
 * `doc` while it is held (so the delete identifies ops as committed then: an active admin), waits
 * until the delete is queued behind it, then commits. Returns the delete's answer.
 */
async function deleteQueuedBehind(change: string, doc: number): Promise<{ status: number; body: any }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const holder = t.state.db.write(async (statements) => {
    statements.get(change).run(opsId);
    await released;
  });
  const deletion = t.post({ __meta__: { namespace: 'vault.Doc', intent: 'delete', uniqueObject: { id: doc } } }, { token: ops });
  for (let i = 0; i < 200 && t.state.db.writes < 2; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(t.state.db.writes).toBe(2);
  release();
  await holder;
  return deletion;
}

const stillThere = async (doc: number) =>
  (await t.post({ __meta__: { namespace: 'vault.Doc', intent: 'retrieveOne', uniqueObject: { id: doc } } }, { token: root })).status;

describe('a write checks its caller inside the write gate', () => {
  it('refuses a delete queued behind a commit that took the caller\'s admin role away', async () => {
    const doc = await newDoc();
    const res = await deleteQueuedBehind(`UPDATE "system.User" SET "roles" = '[]' WHERE "id" = ?`, doc);
    expect(res.status).toBe(403);
    expect(res.body.__errors__[0].code).toBe('forbidden');
    expect(await stillThere(doc)).toBe(200);
  });

  it('refuses a delete queued behind a commit that disabled the caller\'s account', async () => {
    const doc = await newDoc();
    const res = await deleteQueuedBehind(`UPDATE "system.User" SET "is_active" = 0 WHERE "id" = ?`, doc);
    expect(res.status).toBe(401);
    expect(res.body.__errors__[0].code).toBe('unauthenticated');
    expect(await stillThere(doc)).toBe(200);
  });

  it('still runs a queued delete whose caller kept the role', async () => {
    const doc = await newDoc();
    const res = await deleteQueuedBehind(`UPDATE "system.User" SET "username" = "username" WHERE "id" = ?`, doc);
    expect(res.status).toBe(200);
    expect(await stillThere(doc)).toBe(404);
  });
});
