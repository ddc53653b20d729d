// The retrieve cache over real HTTP (docs/protocol.md "`__meta__` keys", "Multi-query"): it answers only what the database holds
// after a rollback, a change of the caller's roles, a cascade of a delete, and it caches answers with
// protected files by signing their URLs afresh for each answer.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { form, startFileServer, VAULT_WORKSPACE, type FileServer } from '../testing/file-server.ts';
import { writeWorkspace } from '../testing/fixture.ts';

const cached = (meta: Record<string, unknown>, data: Record<string, unknown> = {}) => ({ __meta__: { ...meta, cache: { enabled: true } }, ...data });

describe('the cache and transactions (demo workspace)', () => {
  let s: FileServer;
  let admin: string;
  beforeAll(async () => {
    s = await startFileServer();
    admin = await s.login('admin', 'admin-demo');
  });
  afterAll(() => s.close());

  const folders = cached({ namespace: 'documents.Folder', intent: 'retrieve', filter: { name: 'Rolled back' } }, { name: null });

  it('a rolled-back atomic multi-query leaves the cache as it was', async () => {
    // An entry from before: no such folder.
    expect((await s.post(folders, admin)).body).toMatchObject({ __payload__: [], __extras__: { cached: false } });
    expect((await s.post(folders, admin)).body.__extras__.cached).toBe(true);
    const existing = (await s.post({ __meta__: { namespace: 'documents.Folder', intent: 'retrieve', limit: 1 }, name: null }, admin)).body.__payload__[0].name;

    const multi = await s.post(
      {
        __root_meta__: { atomic: true },
        make: { __meta__: { namespace: 'documents.Folder', intent: 'create' }, name: 'Rolled back' },
        read: folders,
        clash: { __meta__: { namespace: 'documents.Folder', intent: 'create' }, name: existing },
      },
      admin,
    );
    expect(multi.status).toBe(200);
    expect(multi.body.__payload__.clash.errors[0].code).toBe('conflict');
    expect(multi.body.__payload__.read.errors[0].code).toBe('rolled_back');

    const after = await s.post(folders, admin);
    expect(after.body.__payload__).toEqual([]);
    // The entry from before the transaction is still good: the rollback changed nothing.
    expect(after.body.__extras__.cached).toBe(true);
  });

  it('inside a transaction a cached read sees that transaction\'s writes, and keeps its answer only on commit', async () => {
    const name = cached({ namespace: 'documents.Folder', intent: 'retrieve', filter: { name: 'Committed' } }, { name: null });
    expect((await s.post(name, admin)).body.__payload__).toEqual([]);
    expect((await s.post(name, admin)).body.__extras__.cached).toBe(true);
    const multi = await s.post(
      { __root_meta__: { atomic: true }, make: { __meta__: { namespace: 'documents.Folder', intent: 'create' }, name: 'Committed' }, read: name },
      admin,
    );
    expect(multi.body.__payload__.read).toMatchObject({ data: [{ name: 'Committed' }], extras: { cached: false } });
    const after = await s.post(name, admin);
    expect(after.body.__payload__).toMatchObject([{ name: 'Committed' }]);
  });

  it('a rolled-back read never fills the cache with what it saw', async () => {
    const name = cached({ namespace: 'documents.Folder', intent: 'retrieve', filter: { name: 'Seen then undone' } }, { name: null });
    const existing = (await s.post({ __meta__: { namespace: 'documents.Folder', intent: 'retrieve', limit: 1 }, name: null }, admin)).body.__payload__[0].name;
    await s.post(
      {
        __root_meta__: { atomic: true },
        make: { __meta__: { namespace: 'documents.Folder', intent: 'create' }, name: 'Seen then undone' },
        read: name,
        clash: { __meta__: { namespace: 'documents.Folder', intent: 'create' }, name: existing },
      },
      admin,
    );
    const after = await s.post(name, admin);
    expect(after.body.__payload__).toEqual([]);
    expect(after.body.__extras__.cached).toBe(false);
  });
});

/** Notes read by role: a `lead` reads every note, a `member` only its own. */
const NOTES_WORKSPACE = {
  name: 'notes',
  apps: {
    team: {
      models: {
        Note: {
          fields: { title: { type: 'string', required: true }, owner: { type: 'ref', to: 'system.User', null: true } },
          permissions: { retrieve: ['lead', 'member'], create: ['authenticated'], update: ['admin'], delete: ['admin'], scope: { member: { owner: '$user.id' } } },
        },
      },
    },
  },
};

describe('the cache and what a caller may read', () => {
  let s: FileServer;
  let admin: string;
  let kimId: number;
  beforeAll(async () => {
    s = await startFileServer({ workspace: writeWorkspace(NOTES_WORKSPACE), env: { JQL_ADMIN: 'root:root-password-1' } });
    admin = await s.login('root', 'root-password-1');
    const kim = await s.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'kim', password: 'kim-password-1', roles: ['lead'] }, admin);
    kimId = kim.body.__payload__.id;
    for (const [title, owner] of [
      ['mine', kimId],
      ['theirs', null],
    ] as const) {
      await s.post({ __meta__: { namespace: 'team.Note', intent: 'create' }, title, owner }, admin);
    }
  });
  afterAll(() => s.close());

  it('a change to the caller\'s roles invalidates the caller\'s entries', async () => {
    const kim = await s.login('kim', 'kim-password-1');
    const notes = cached({ namespace: 'team.Note', intent: 'retrieve', ordering: ['title'] }, { title: null });
    expect((await s.post(notes, kim)).body.__payload__.map((n: { title: string }) => n.title)).toEqual(['mine', 'theirs']);
    expect((await s.post(notes, kim)).body.__extras__.cached).toBe(true);
    const demoted = await s.post({ __meta__: { namespace: 'system.User', intent: 'update', uniqueObject: { id: kimId } }, roles: ['member'] }, admin);
    expect(demoted.status).toBe(200);
    const after = await s.post(notes, kim);
    expect(after.body.__payload__.map((n: { title: string }) => n.title)).toEqual(['mine']);
    expect(after.body.__extras__.cached).toBe(false);
  });

  it('rows a delete rewrites through ON DELETE SET NULL invalidate their model', async () => {
    const sam = await s.post({ __meta__: { namespace: 'system.User', intent: 'create' }, username: 'sam', password: 'sam-password-1' }, admin);
    const samId = sam.body.__payload__.id as number;
    // Two rows: the foreign key's rewrite fires the capture twice in one statement.
    for (let i = 0; i < 2; i++) await s.post({ __meta__: { namespace: 'team.Note', intent: 'create' }, title: "sam's", owner: samId }, admin);
    const notes = cached({ namespace: 'team.Note', intent: 'retrieve', filter: { title: "sam's" } }, { owner: null });
    expect((await s.post(notes, admin)).body.__payload__).toMatchObject([{ owner: samId }, { owner: samId }]);
    expect((await s.post(notes, admin)).body.__extras__.cached).toBe(true);
    expect((await s.post({ __meta__: { namespace: 'system.User', intent: 'delete', uniqueObject: { id: samId } } }, admin)).status).toBe(200);
    const after = await s.post(notes, admin);
    expect(after.body.__payload__).toMatchObject([{ owner: null }, { owner: null }]);
  });
});

describe('the cache and protected files', () => {
  let s: FileServer;
  beforeAll(async () => {
    s = await startFileServer({ workspace: writeWorkspace(VAULT_WORKSPACE) });
    const doc = await s.put(
      form(
        { __meta__: { namespace: 'vault.Doc', intent: 'create', sideEffects: { fileFieldMapping: { cover: 'c' } } }, title: 'Covered' },
        { c: { data: 'cover bytes', name: 'cover.png', type: 'image/png' } },
      ),
    );
    expect(doc.status).toBe(200);
  });
  afterAll(() => s.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('caches the records and signs their URLs afresh for each answer', async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const query = cached({ namespace: 'vault.Doc', intent: 'retrieve' }, { title: null, cover: null });
    const first = await s.post(query);
    expect(first.body.__extras__.cached).toBe(false);
    const firstUrl = first.body.__payload__[0].cover.url as string;

    // Ten minutes later the hit carries a URL signed then, valid for its own 15 minutes.
    vi.setSystemTime(start + 10 * 60_000);
    const hit = await s.post(query);
    expect(hit.body.__extras__.cached).toBe(true);
    const { url: hitUrl, ...hitFile } = hit.body.__payload__[0].cover;
    const { url: _firstUrl, ...firstFile } = first.body.__payload__[0].cover;
    expect(hitFile).toEqual(firstFile);
    expect(hitUrl).not.toBe(firstUrl);
    expect(Number(new URL(hitUrl, s.url).searchParams.get('expires'))).toBe(Math.floor((start + 10 * 60_000) / 1000) + 15 * 60);

    // Twenty minutes after the first answer: its URL has expired, the hit's still opens the file.
    vi.setSystemTime(start + 20 * 60_000);
    expect((await s.get(firstUrl)).status).toBe(403);
    const fresh = await s.get(hitUrl);
    expect(fresh.status).toBe(200);
    expect(await fresh.text()).toBe('cover bytes');
  });
});
