import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, writeWorkspace, type TestApp } from '../../testing/fixture.ts';

describe('demo controllers and hooks', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await testApp();
    token = await t.login('viewer', 'viewer-demo');
  });
  afterAll(() => t.close());

  const folder = (intent: string, args: Record<string, unknown>) => ({ __meta__: { namespace: 'documents.Folder', intent, schema: 'controller' }, ...args });

  it('addDocument adds a document to a folder', async () => {
    const res = await t.post(folder('addDocument', { folder: 1, name: 'Minutes' }), { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.__payload__).toMatchObject({ folder: 1, name: 'Minutes' });
    expect(res.body.__message__).toMatch(/Added/);
    expect(res.body.__intent__).toBe('addDocument');
  });

  it('addDocument refuses wrong types and an unknown folder with validation errors', async () => {
    const wrongType = await t.post(folder('add_document', { folder: '1', name: 'x' }), { token });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'folder' });
    const unknown = await t.post(folder('addDocument', { folder: 9999, name: 'x' }), { token });
    expect(unknown.status).toBe(422);
    expect(unknown.body.__errors__[0].field).toBe('folder');
    const anonymous = await t.post(folder('addDocument', { folder: 1, name: 'x' }));
    expect(anonymous.status).toBe(401);
  });

  it('createFolderWithDocuments writes all or nothing', async () => {
    const ok = await t.post(folder('createFolderWithDocuments', { name: 'Q3', documents: ['a', 'b'] }), { token });
    expect(ok.status).toBe(200);
    expect(ok.body.__payload__.documents).toHaveLength(2);
    const dup = await t.post(folder('createFolderWithDocuments', { name: 'Q3', documents: ['c'] }), { token });
    expect(dup.status).toBe(409);
    const count = await t.post({ __meta__: { namespace: 'documents.Document', intent: 'count', filter: { name: 'c' } } });
    expect(count.body.__payload__.count).toBe(0);
  });

  it('listDocuments lists a folder\'s documents and is the intent describe calls read-only', async () => {
    const made = await t.post(folder('createFolderWithDocuments', { name: 'Listed', documents: ['zeta', 'alpha'] }), { token });
    const id = made.body.__payload__.id;
    const listed = await t.post(folder('listDocuments', { folder: id }), { token });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.__payload__.map((d: { name: string }) => d.name)).toEqual(['alpha', 'zeta']);
    const unknown = await t.post(folder('listDocuments', { folder: 987654 }), { token });
    expect(unknown.status).toBe(422);
    expect(unknown.body.__errors__[0].field).toBe('folder');

    const describe = await t.post({ __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } }, { token });
    const apps = describe.body.__payload__.apps as Record<string, { controllers: Record<string, { readOnly?: string[] }> }>;
    const readOnly = Object.entries(apps).flatMap(([app, { controllers }]) =>
      Object.entries(controllers).flatMap(([name, c]) => (c.readOnly ? [[`${app}.${name}`, c.readOnly] as const] : [])),
    );
    // Every other demo controller writes: none of them lists a read-only intent.
    expect(Object.fromEntries(readOnly)).toEqual({ 'documents.Folder': ['listDocuments'], 'system.Schema': ['describe'], 'system.User': ['verifyAuthentication'] });
  });

  it('hooks change values and reject with validation_error', async () => {
    const created = await t.post({ __meta__: { namespace: 'tickets.Ticket', intent: 'create' }, title: '   padded   ' }, { token });
    expect(created.body.__payload__.title).toBe('padded');
    const admin = await t.login('admin', 'admin-demo');
    const id = created.body.__payload__.id;
    const close = await t.post({ __meta__: { namespace: 'tickets.Ticket', intent: 'update', uniqueObject: { id } }, status: 'closed' }, { token: admin });
    expect(close.status).toBe(422);
    expect(close.body.__errors__[0]).toMatchObject({ code: 'validation_error', field: 'status' });
    const withReason = await t.post(
      { __meta__: { namespace: 'tickets.Ticket', intent: 'update', uniqueObject: { id } }, status: 'closed', meta: { resolution: 'done' } },
      { token: admin },
    );
    expect(withReason.status).toBe(200);
  });
});

describe('a workspace controllers module', () => {
  let t: TestApp;
  beforeAll(async () => {
    const file = writeWorkspace({
      name: 'garden',
      apps: {
        garden: {
          controllers: './garden-controllers.mjs',
          models: { Plant: { fields: { name: { type: 'string', required: true } }, permissions: { retrieve: ['anyone'], create: ['anyone'] } } },
        },
      },
    });
    writeFileSync(
      join(dirname(file), 'garden-controllers.mjs'),
      `export class Greenhouse {
        static permissions = { plantTwo: ['anyone'], boom: ['anyone'], secretOps: ['gardener'] };
        async on_plant_two(ctx, args) {
          const a = await ctx.data.create('garden.Plant', { name: args.first });
          const b = await ctx.data.create('garden.Plant', { name: args.second });
          return { payload: [a, b], message: 'planted', extras: { planted: 2 } };
        }
        async on_boom(ctx) {
          await ctx.data.create('garden.Plant', { name: 'doomed' });
          throw new Error('kaboom');
        }
        on_secret_ops() { return { payload: 'ok' }; }
      }`,
    );
    t = await testApp({ workspace: file });
  });
  afterAll(() => t.close());

  const call = (intent: string, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
    __meta__: { namespace: 'garden.Greenhouse', intent, schema: 'controller', ...extra },
    ...args,
  });

  it('loads the module and calls on_<intent> with the handler result in the envelope', async () => {
    const res = await t.post(call('plantTwo', { first: 'fern', second: 'moss' }));
    expect(res.status).toBe(200);
    expect(res.body.__payload__.map((p: any) => p.name)).toEqual(['fern', 'moss']);
    expect(res.body.__message__).toBe('planted');
    expect(res.body.__extras__).toMatchObject({ planted: 2 });
  });

  it('a throwing handler is internal_error with detail only in debug, and leaves no write', async () => {
    const plain = await t.post(call('boom'));
    expect(plain.status).toBe(500);
    expect(plain.body.__errors__[0].code).toBe('internal_error');
    expect(plain.body.__errors__[0].detail).toBeUndefined();
    expect(JSON.stringify(plain.body)).not.toContain('kaboom');
    const debug = await t.post(call('boom', {}, { debug: true }));
    expect(debug.body.__errors__[0].detail).toMatchObject({ exception: 'Error', message: 'kaboom' });
    const count = await t.post({ __meta__: { namespace: 'garden.Plant', intent: 'count', filter: { name: 'doomed' } } });
    expect(count.body.__payload__.count).toBe(0);
  });

  it('answers unknown_intent, unknown_namespace and the static permissions', async () => {
    expect((await t.post(call('water'))).body.__errors__[0].code).toBe('unknown_intent');
    expect((await t.post(call('constructor'))).body.__errors__[0].code).toBe('unknown_intent');
    expect((await t.post({ __meta__: { namespace: 'garden.Nope', intent: 'x', schema: 'controller' } })).status).toBe(404);
    expect((await t.post(call('secretOps'))).status).toBe(401);
  });
});

describe('production mode', () => {
  it('ignores debug and closes describe to anonymous callers', async () => {
    const t = await testApp({ production: true });
    try {
      const res = await t.post({ __meta__: { namespace: 'system.Schema', intent: 'describe', schema: 'controller' } });
      expect(res.status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
