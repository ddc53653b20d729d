// Issue 17.13 over a real socket: a stored file lives while a record names it. Deleting a record or
// replacing (or clearing) its file removes the file row and, once no row names its bytes, the blob,
// after the transaction commits; never while another record, or a field removed from the workspace
// that still holds data, names it. And ON DELETE SET NULL emits `updated` for each record it changes.
import { createHash } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, openReader } from '../db/database.ts';
import { start, type RunningServer } from '../index.ts';
import { LIBRARY_WORKSPACE, tempDir, writeWorkspace } from '../testing/fixture.ts';
import { form, startFileServer, VAULT_WORKSPACE, type FileServer } from '../testing/file-server.ts';
import { startStreamServer, StreamClient } from '../testing/stream-client.ts';

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const blobPath = (sha: string) => `${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}`;
const upload = (intent: 'create' | 'update', data: Record<string, unknown>, mapping: Record<string, string>, meta: Record<string, unknown> = {}) => ({
  __meta__: { namespace: 'vault.Doc', intent, sideEffects: { multipartFormUpload: true, fileFieldMapping: mapping }, ...meta },
  ...data,
});

describe('stored files are reference-counted', () => {
  let s: FileServer;
  beforeAll(async () => {
    s = await startFileServer({ workspace: writeWorkspace(VAULT_WORKSPACE) });
  });
  afterAll(() => s.close());
  const fileRows = (sha: string): number => s.rows('SELECT COUNT(*) AS n FROM jql_files WHERE sha256 = ?', sha)[0].n;
  const hasBlob = (sha: string): boolean => s.stored().blobs.includes(blobPath(sha));

  it('removes the old row and blob when a file is replaced, cleared, or its record deleted', async () => {
    const made = await s.put(form(upload('create', { title: 'Doc' }, { file: 'f', cover: 'c' }), { f: { data: 'first version' }, c: { data: 'cover art' } }));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.__payload__.id;
    expect([fileRows(sha256('first version')), hasBlob(sha256('first version'))]).toEqual([1, true]);

    const replaced = await s.put(form(upload('update', {}, { file: 'f' }, { uniqueObject: { id } }), { f: { data: 'second version' } }));
    expect(replaced.status).toBe(200);
    expect([fileRows(sha256('first version')), hasBlob(sha256('first version'))]).toEqual([0, false]);
    expect(hasBlob(sha256('second version'))).toBe(true);

    const cleared = await s.post({ __meta__: { namespace: 'vault.Doc', intent: 'update', uniqueObject: { id } }, cover: null });
    expect(cleared.status).toBe(200);
    expect([fileRows(sha256('cover art')), hasBlob(sha256('cover art'))]).toEqual([0, false]);

    expect((await s.post({ __meta__: { namespace: 'vault.Doc', intent: 'delete', uniqueObject: { id } } })).status).toBe(200);
    expect([fileRows(sha256('second version')), hasBlob(sha256('second version'))]).toEqual([0, false]);
  });

  it('keeps a blob while another record holds the same bytes', async () => {
    const bytes = 'shared bytes';
    const one = await s.put(form(upload('create', { title: 'One' }, { file: 'f' }), { f: { data: bytes } }));
    const two = await s.put(form(upload('create', { title: 'Two' }, { file: 'f' }), { f: { data: bytes } }));
    expect(fileRows(sha256(bytes))).toBe(2);
    await s.post({ __meta__: { namespace: 'vault.Doc', intent: 'delete', uniqueObject: { id: one.body.__payload__.id } } });
    expect([fileRows(sha256(bytes)), hasBlob(sha256(bytes))]).toEqual([1, true]);
    expect(await (await s.get(two.body.__payload__.file.url)).text()).toBe(bytes);
    await s.post({ __meta__: { namespace: 'vault.Doc', intent: 'delete', uniqueObject: { id: two.body.__payload__.id } } });
    expect([fileRows(sha256(bytes)), hasBlob(sha256(bytes))]).toEqual([0, false]);
  });

  it('keeps everything when the delete is rolled back', async () => {
    const bytes = 'rolled back delete';
    const made = await s.put(form(upload('create', { title: 'Kept' }, { file: 'f' }), { f: { data: bytes } }));
    const id = made.body.__payload__.id;
    const atomic = await s.post({
      __root_meta__: { atomic: true },
      gone: { __meta__: { namespace: 'vault.Doc', intent: 'delete', uniqueObject: { id } } },
      broken: { __meta__: { namespace: 'vault.Doc', intent: 'create' }, title: 'x'.repeat(51) },
    });
    expect(atomic.body.__payload__.gone.errors[0].code).toBe('rolled_back');
    expect([fileRows(sha256(bytes)), hasBlob(sha256(bytes))]).toEqual([1, true]);
  });
});

describe('a file named by two records, or by a removed field', () => {
  const dataDir = tempDir('jql-blob-refs-');
  const wsDir = tempDir('jql-blob-refs-ws-');
  let server: RunningServer | null = null;
  // Keep-alive sockets of fetch would hold close() up: end them first.
  const stop = async (): Promise<void> => {
    server?.app.server.closeAllConnections();
    await server?.close();
    server = null;
  };
  afterAll(async () => {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(wsDir, { recursive: true, force: true });
  });

  // A controller that files one uploaded part under two records: both name the same file row.
  writeFileSync(
    join(wsDir, 'controllers.mjs'),
    `export class Twin {
      static files = { twin: ['f'] };
      static permissions = { twin: ['anyone'] };
      async on_twin(ctx) {
        const mapping = { sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: 'f' } } };
        const a = await ctx.data.create('box.Doc', { title: 'a' }, mapping);
        const b = await ctx.data.create('box.Doc', { title: 'b' }, mapping);
        return { payload: { a: a.id, b: b.id } };
      }
    }`,
  );
  const workspace = (withOld: boolean) => {
    const file = join(wsDir, 'jql.workspace.json');
    const fields: Record<string, unknown> = { title: { type: 'string', required: true }, file: { type: 'file', null: true } };
    if (withOld) fields.old_file = { type: 'file', null: true };
    const open = { retrieve: ['anyone'], create: ['anyone'], update: ['anyone'], delete: ['anyone'] };
    writeFileSync(file, JSON.stringify({ name: 'box', apps: { box: { controllers: './controllers.mjs', models: { Doc: { fields, permissions: open } } } } }));
    return file;
  };
  const restart = async (withOld: boolean) => {
    await stop();
    server = await start({ workspace: workspace(withOld), dataDir, port: 0, env: {} });
    return server.url;
  };
  const call = async (url: string, body: unknown) => (await fetch(`${url}/jql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<any>;
  const put = async (url: string, query: unknown, files: Record<string, string>) =>
    (await fetch(`${url}/jql`, { method: 'PUT', body: form(query, Object.fromEntries(Object.entries(files).map(([k, data]) => [k, { data }]))) })).json() as Promise<any>;
  const rows = (sql: string, ...params: unknown[]): any[] => {
    const db = openReader(join(dataDir, 'jql.sqlite'));
    try {
      return db.prepare(sql).all(...params);
    } finally {
      db.close();
    }
  };
  const blobExists = (data: string) => {
    const sha = sha256(data);
    return rows('SELECT 1 FROM jql_files WHERE sha256 = ?', sha).length > 0 && existsSync(join(dataDir, 'files', blobPath(sha)));
  };

  it('keeps the file row while the other record names it', async () => {
    const url = await restart(false);
    const twin = await put(url, { __meta__: { namespace: 'box.Twin', intent: 'twin', schema: 'controller' } }, { f: 'twin bytes' });
    expect(twin.__errors__).toBeNull();
    const { a, b } = twin.__payload__;
    expect(rows('SELECT COUNT(*) AS n FROM jql_files')[0].n).toBe(1);
    await call(url, { __meta__: { namespace: 'box.Doc', intent: 'delete', uniqueObject: { id: a } } });
    expect(rows('SELECT COUNT(*) AS n FROM jql_files')[0].n).toBe(1);
    const other = await call(url, { __meta__: { namespace: 'box.Doc', intent: 'retrieveOne', uniqueObject: { id: b } } });
    expect(await (await fetch(`${url}${other.__payload__.file.url}`)).text()).toBe('twin bytes');
    await call(url, { __meta__: { namespace: 'box.Doc', intent: 'delete', uniqueObject: { id: b } } });
    expect(rows('SELECT COUNT(*) AS n FROM jql_files')[0].n).toBe(0);
  });

  it('keeps files a removed field still holds, across restarts and deletes of records with the same bytes', async () => {
    let url = await restart(true);
    const kept = await put(url, { __meta__: { namespace: 'box.Doc', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: { old_file: 'f' } } }, title: 'old' }, { f: 'same bytes' });
    const other = await put(url, { __meta__: { namespace: 'box.Doc', intent: 'create', sideEffects: { multipartFormUpload: true, fileFieldMapping: { file: 'f' } } }, title: 'new' }, { f: 'same bytes' });
    expect([kept.__errors__, other.__errors__]).toEqual([null, null]);
    // The field goes from the workspace; its column and data stay.
    url = await restart(false);
    expect(blobExists('same bytes')).toBe(true);
    await call(url, { __meta__: { namespace: 'box.Doc', intent: 'delete', uniqueObject: { id: other.__payload__.id } } });
    expect(rows('SELECT COUNT(*) AS n FROM jql_files WHERE sha256 = ?', sha256('same bytes'))[0].n).toBe(1);
    expect(blobExists('same bytes')).toBe(true);
    // Back in the workspace, the field serves its file again.
    url = await restart(true);
    const back = await call(url, { __meta__: { namespace: 'box.Doc', intent: 'retrieveOne', uniqueObject: { id: kept.__payload__.id } } });
    expect(await (await fetch(`${url}${back.__payload__.old_file.url}`)).text()).toBe('same bytes');
  });

  it('drops at start the file rows no record names (left by earlier versions)', async () => {
    await stop();
    const db = openDatabase(join(dataDir, 'jql.sqlite'));
    db.prepare('INSERT INTO jql_files (id, sha256, size, content_type, name, created_at) VALUES (?, ?, 1, ?, ?, ?)').run('orphan', sha256('orphan'), 'text/plain', 'o.txt', new Date().toISOString());
    db.close();
    await restart(true);
    expect(rows("SELECT COUNT(*) AS n FROM jql_files WHERE id = 'orphan'")[0].n).toBe(0);
    expect(rows('SELECT COUNT(*) AS n FROM jql_files WHERE sha256 = ?', sha256('same bytes'))[0].n).toBe(1);
  });
});

describe('ON DELETE SET NULL', () => {
  it('emits updated for each record whose reference the delete clears', async () => {
    const s = await startStreamServer({ workspace: writeWorkspace(LIBRARY_WORKSPACE) });
    const client = await StreamClient.connect(s.wsUrl);
    try {
      const author = await s.post({ __meta__: { namespace: 'lib.Author', intent: 'create' }, name: 'Gone' });
      const id = author.body.__payload__.id;
      const made = await s.post({
        a: { __meta__: { namespace: 'lib.Book', intent: 'create' }, title: 'A', author: id },
        b: { __meta__: { namespace: 'lib.Book', intent: 'create' }, title: 'B', author: id },
        c: { __meta__: { namespace: 'lib.Book', intent: 'create' }, title: 'C' },
      });
      const ids = ['a', 'b'].map((k) => made.body.__payload__[k].data.id);
      expect(await client.subscribe({ id: 'books', namespace: 'lib.Book', events: ['updated'] })).toMatchObject({ type: 'subscribed' });
      expect((await s.post({ __meta__: { namespace: 'lib.Author', intent: 'delete', uniqueObject: { id } } })).status).toBe(200);
      const events = await client.events('books', 2);
      expect(events.map((e) => [e.event, e.record.id, e.record.author]).sort()).toEqual(ids.map((bookId) => ['updated', bookId, null]).sort());
      await client.roundTrip();
      expect(client.messages.filter((m) => m.type === 'event')).toHaveLength(2);
    } finally {
      await client.close();
      await s.close();
    }
  });
});
