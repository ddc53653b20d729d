import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { tempDir } from '../testing/fixture.ts';
import { WorkspaceError } from './errors.ts';
import { loadWorkspace, resolveWorkspace } from './resolve.ts';

const FILE = '/srv/ws/jql.workspace.json';

/** A one-model workspace `shop.Item` with the given fields and model extras. */
function shop(fields: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown {
  return { apps: { shop: { models: { Item: { fields, ...extra } } } } };
}

function errorOf(raw: unknown): WorkspaceError {
  try {
    resolveWorkspace(raw, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(WorkspaceError);
    return error as WorkspaceError;
  }
  throw new Error('expected a WorkspaceError');
}

/** Asserts the message names the file and each given location part, and holds `text`. */
function expectFailure(raw: unknown, where: { app?: string; model?: string; field?: string; relation?: string; collection?: string }, text: string | RegExp): void {
  const error = errorOf(raw);
  expect(error.message).toContain(`Invalid workspace ${FILE}:`);
  for (const [kind, name] of Object.entries(where)) expect(error.message).toContain(`${kind} "${name}"`);
  expect(error.message).toMatch(text);
}

describe('resolveWorkspace: a valid workspace', () => {
  it('resolves fields, required flags, search defaults, limits and module paths', () => {
    const ws = resolveWorkspace(
      {
        name: 'helpdesk',
        limits: { maxLimit: 500 },
        apps: {
          tickets: {
            controllers: './controllers/tickets.mjs',
            hooks: 'hooks/tickets.mjs',
            models: {
              Ticket: {
                fields: {
                  title: { type: 'string', required: true, maxLength: 200 },
                  status: { type: 'string', choices: ['open', 'closed'], default: 'open' },
                  body: { type: 'text', null: true },
                  secret: { type: 'string', writeOnly: true, null: true },
                  assignee: { type: 'ref', to: 'system.User', null: true },
                  created_at: { type: 'datetime', auto: 'create' },
                },
                ordering: ['-created_at'],
              },
            },
            collections: ['Note'],
          },
        },
      },
      FILE,
    );
    expect(ws.name).toBe('helpdesk');
    expect(ws.limits).toEqual({
      defaultLimit: 100,
      maxLimit: 500,
      maxFileBytes: 104857600,
      maxBodyBytes: 10485760,
      maxQueriesPerRequest: 64,
      maxValueBytes: 1048576,
      maxAnswerBytes: 67108864,
      maxNested: 100,
      maxUploadBytes: 1073741824,
      maxStreamEvents: 10000,
      cacheEntries: 1000,
      cacheBytes: 67108864,
      requestsPerMinute: 0,
      heldAnswerBytes: 268435456,
    });
    const app = ws.apps.get('tickets');
    expect(app?.controllersPath).toBe('/srv/ws/controllers/tickets.mjs');
    expect(app?.hooksPath).toBe('/srv/ws/hooks/tickets.mjs');
    const ticket = ws.models.get('tickets.Ticket');
    expect(ticket?.table).toBe('tickets.Ticket');
    expect(ticket?.search).toEqual(['title', 'status', 'body']);
    const f = (name: string) => ticket?.fields.get(name);
    expect(f('title')).toMatchObject({ required: true, strictRequired: true, nullable: false, column: 'title' });
    expect(f('status')).toMatchObject({ required: false, default: 'open' });
    expect(f('body')).toMatchObject({ required: false, nullable: true });
    expect(f('created_at')).toMatchObject({ required: false, auto: 'create' });
    expect(f('assignee')).toMatchObject({ to: 'system.User' });
    expect(ws.collections.get('tickets.Note')).toEqual({ key: 'tickets.Note', app: 'tickets', name: 'Note', permissions: null });
    expect([...ws.apps.keys()]).toEqual(['system', 'tickets']);
  });

  it('accepts collections as an object with permissions', () => {
    const ws = resolveWorkspace({ apps: { chat: { collections: { Message: { permissions: { retrieve: ['authenticated'], scope: { agent: { 'author.name': '$user.username' } } } } } } } }, null);
    expect(ws.collections.get('chat.Message')?.permissions).toEqual({ intents: { retrieve: ['authenticated'] }, scope: { agent: { 'author.name': '$user.username' } } });
    expect(ws.file).toBeNull();
  });

  it('resolves relations and a row scope', () => {
    const ws = resolveWorkspace(
      {
        apps: {
          docs: {
            models: {
              Folder: { fields: { name: { type: 'string' } }, relations: { documents: { many: 'docs.Doc', via: 'folder' } } },
              Doc: { fields: { folder: { type: 'ref', to: 'docs.Folder' }, owner: { type: 'ref', to: 'system.User', null: true } }, permissions: { update: ['agent'], scope: { agent: { owner: '$user.id' } } } },
            },
          },
        },
      },
      null,
    );
    expect(ws.models.get('docs.Folder')?.relations.get('documents')).toEqual({ name: 'documents', many: 'docs.Doc', via: 'folder' });
    expect(ws.models.get('docs.Doc')?.permissions).toEqual({ intents: { update: ['agent'] }, scope: { agent: { owner: '$user.id' } } });
  });
});

describe('resolveWorkspace: mistakes are WorkspaceErrors naming where', () => {
  it('names file, app, model and field for an unknown type', () => {
    const error = errorOf(shop({ priority: { type: 'int' } }));
    expect(error.message).toMatch(/^Invalid workspace \/srv\/ws\/jql.workspace.json: app "shop", model "Item", field "priority": unknown type "int"/);
    expect(error).toMatchObject({ file: FILE, app: 'shop', model: 'Item', field: 'priority' });
  });

  it('refuses bad identifiers and the reserved id', () => {
    expectFailure({ apps: { 'my-app': {} } }, {}, /app name "my-app"/);
    expectFailure({ apps: { shop: { models: { '1Item': {} } } } }, { app: 'shop' }, /model name "1Item"/);
    expectFailure(shop({ firstName: { type: 'string' } }), { app: 'shop', model: 'Item', field: 'firstName' }, /snake_case/);
    expectFailure(shop({ a__b: { type: 'string' } }), { field: 'a__b' }, /snake_case/);
    expectFailure(shop({ id: { type: 'integer' } }), { field: 'id' }, /"id" is reserved/);
    expectFailure({ apps: { shop: { collections: ['bad name'] } } }, { app: 'shop', collection: 'bad name' }, /collection name/);
  });

  it('refuses unknown keys at every level', () => {
    expectFailure({ apps: {}, version: 2 }, {}, /unknown key "version"/);
    expectFailure({ apps: { shop: { model: {} } } }, { app: 'shop' }, /unknown key "model"/);
    expectFailure(shop({}, { filters: [] }), { app: 'shop', model: 'Item' }, /unknown key "filters"/);
    expectFailure({ limits: { maxRows: 5 } }, {}, /unknown key "maxRows"/);
  });

  it('refuses unknown options, options of another type and ill-typed options', () => {
    expectFailure(shop({ name: { type: 'string', lenght: 5 } }), { field: 'name' }, /unknown option "lenght"/);
    expectFailure(shop({ n: { type: 'integer', maxLength: 5 } }), { field: 'n' }, /option "maxLength" does not apply to type "integer"/);
    expectFailure(shop({ name: { type: 'string', maxLength: '5' } }), { field: 'name' }, /"maxLength" must be a positive integer/);
    expectFailure(shop({ name: { type: 'string', unique: 'yes' } }), { field: 'name' }, /"unique" must be true or false/);
    expectFailure(shop({ at: { type: 'datetime', auto: 'always' } }), { field: 'at' }, /"auto" must be "create" or "update"/);
    expectFailure(shop({ n: { type: 'integer', min: 5, max: 1 } }), { field: 'n' }, /"min" \(5\) is greater than "max" \(1\)/);
    expectFailure(shop({ n: { required: true } }), { field: 'n' }, /"type" is missing/);
  });

  it('checks ref targets', () => {
    expectFailure(shop({ owner: { type: 'ref' } }), { field: 'owner' }, /needs "to"/);
    expectFailure(shop({ owner: { type: 'ref', to: 'shop.Nope' } }), { field: 'owner' }, /unknown model "shop.Nope"/);
  });

  it('checks choices and defaults against the type', () => {
    expectFailure(shop({ s: { type: 'string', choices: [] } }), { field: 's' }, /non-empty array/);
    expectFailure(shop({ s: { type: 'string', choices: ['a', 1] } }), { field: 's' }, /choice 1 must be a string/);
    expectFailure(shop({ s: { type: 'string', choices: ['a', 'a'] } }), { field: 's' }, /lists a value twice/);
    expectFailure(shop({ s: { type: 'string', choices: ['a', 'b'], default: 'c' } }), { field: 's' }, /not one of the choices/);
    expectFailure(shop({ n: { type: 'integer', default: 1.5 } }), { field: 'n' }, /default 1.5 must be an integer/);
    expectFailure(shop({ n: { type: 'integer', default: 9, max: 5 } }), { field: 'n' }, /above "max"/);
    expectFailure(shop({ s: { type: 'string', default: 'abc', maxLength: 2 } }), { field: 's' }, /longer than "maxLength"/);
    expectFailure(shop({ b: { type: 'boolean', default: 'yes' } }), { field: 'b' }, /must be true or false/);
    expectFailure(shop({ d: { type: 'date', default: '2026-13-45' } }), { field: 'd' }, /must be a date/);
    expectFailure(shop({ d: { type: 'datetime', default: '2026-01-01T00:00:00' } }), { field: 'd' }, /time zone/);
    expectFailure(shop({ s: { type: 'string', default: null } }), { field: 's' }, /"default": null needs "null": true/);
  });

  it('refuses contradictory options', () => {
    expectFailure(shop({ s: { type: 'string', required: true, null: true } }), { field: 's' }, /"required": true contradicts/);
    expectFailure(shop({ s: { type: 'string', required: false } }), { field: 's' }, /"required": false needs/);
    expectFailure(shop({ at: { type: 'datetime', auto: 'create', default: '2026-01-01T00:00:00Z' } }), { field: 'at' }, /takes no "default"/);
    expectFailure(shop({ s: { type: 'string', hidden: true } }), { field: 's' }, /hidden field/);
    expectFailure(shop({ s: { type: 'string', hidden: true, writeOnly: true, null: true } }), { field: 's' }, /exclude each other/);
    expectFailure(shop({ password: { type: 'integer', writeOnly: true, null: true } }), { field: 'password' }, /must be of type "string"/);
  });

  it('checks relations', () => {
    const two = (relation: unknown, docFields: Record<string, unknown> = { folder: { type: 'ref', to: 'a.Folder' } }) => ({
      apps: { a: { models: { Folder: { fields: { name: { type: 'string' } }, relations: { docs: relation } }, Doc: { fields: docFields } } } },
    });
    expectFailure(two({ many: 'a.Nope', via: 'folder' }), { app: 'a', model: 'Folder', relation: 'docs' }, /"many" must name a model/);
    expectFailure(two({ many: 'a.Doc', via: 'nope' }), { relation: 'docs' }, /"via" must name a ref field of a.Doc/);
    expectFailure(two({ many: 'a.Doc', via: 'owner' }, { owner: { type: 'ref', to: 'system.User' } }), { relation: 'docs' }, /points at system.User, not at a.Folder/);
    expectFailure(two({ many: 'a.Doc', via: 'folder', extra: 1 }), { relation: 'docs' }, /unknown key "extra"/);
  });

  it('checks search, ordering and indexes', () => {
    const fields = { name: { type: 'string' }, n: { type: 'integer' }, pw: { type: 'string', writeOnly: true, null: true } };
    expectFailure(shop(fields, { search: ['nope'] }), { model: 'Item', field: 'nope' }, /"search" names an unknown/);
    expectFailure(shop(fields, { search: ['pw'] }), { field: 'pw' }, /unreadable/);
    expectFailure(shop(fields, { search: ['n'] }), { field: 'n' }, /string and text fields/);
    expectFailure(shop(fields, { ordering: ['-nope'] }), { field: 'nope' }, /"ordering" entry "-nope"/);
    expectFailure(shop(fields, { indexes: [['name', 'nope']] }), { field: 'nope' }, /"indexes" names an unknown field/);
    expectFailure(shop(fields, { indexes: ['name'] }), { model: 'Item' }, /each "indexes" entry must be an array/);
    // Valid forms: a `-` prefix and `id` in ordering; readable defaults for search.
    const ws = resolveWorkspace(shop(fields, { ordering: ['-n', 'id'] }), null);
    expect(ws.models.get('shop.Item')?.search).toEqual(['name']);
  });

  it('checks permissions', () => {
    const fields = { owner: { type: 'ref', to: 'system.User', null: true }, n: { type: 'integer', null: true } };
    expectFailure(shop(fields, { permissions: { retrieve: 'anyone' } }), { model: 'Item' }, /permissions "retrieve" must be an array/);
    expectFailure(shop(fields, { permissions: { count: ['anyone'] } }), { model: 'Item' }, /unknown key "count"/);
    expectFailure(shop(fields, { permissions: { retrieve: ['has space'] } }), { model: 'Item' }, /role name "has space"/);
    expectFailure(shop(fields, { permissions: { scope: { agent: { nope: 1 } } } }), { model: 'Item', field: 'nope' }, /unknown or unreadable field/);
    expectFailure(shop(fields, { permissions: { scope: { agent: { owner: '$user.shoe_size' } } } }), { field: 'owner' }, /names no readable field of system.User/);
    expectFailure(shop(fields, { permissions: { scope: { agent: { n: 'x' } } } }), { field: 'n' }, /must be an integer/);
    expectFailure(shop(fields, { permissions: { scope: { agent: { n: [1] } } } }), { model: 'Item' }, /must be a string, number/);
    expectFailure(shop(fields, { permissions: { scope: ['agent'] } }), { model: 'Item' }, /permissions "scope" must be an object/);
  });

  it('checks limits and collections', () => {
    expectFailure({ limits: { maxLimit: 0 } }, {}, /limit "maxLimit" must be a positive integer/);
    expectFailure({ limits: { defaultLimit: 50.5 } }, {}, /positive integer/);
    expectFailure({ limits: { defaultLimit: 2000 } }, {}, /above "maxLimit"/);
    for (const key of ['maxQueriesPerRequest', 'maxValueBytes', 'maxAnswerBytes', 'maxNested', 'maxUploadBytes']) {
      expectFailure({ limits: { [key]: 0 } }, {}, new RegExp(`limit "${key}" must be a positive integer`));
      expectFailure({ limits: { [key]: '64' } }, {}, new RegExp(`limit "${key}" must be a positive integer`));
    }
    expectFailure({ limits: { requestsPerMinute: -1 } }, {}, /"requestsPerMinute" must be an integer >= 0/);
    expectFailure({ limits: { maxFileBytes: 2048, maxUploadBytes: 1024 } }, {}, /"maxFileBytes" \(2048\) is above "maxUploadBytes" \(1024\)/);
    expectFailure({ limits: { maxValueBytes: 4096, maxAnswerBytes: 1024 } }, {}, /"maxValueBytes" \(4096\) is above "maxAnswerBytes"/);
    expectFailure({ limits: { maxNesting: 5 } }, {}, /unknown key "maxNesting" in "limits"/);
    expectFailure({ apps: { a: { collections: ['N', 'N'] } } }, { app: 'a', collection: 'N' }, /listed twice/);
    expectFailure({ apps: { a: { collections: { N: { indexes: [] } } } } }, { collection: 'N' }, /unknown key "indexes"/);
    expectFailure({ apps: { a: { collections: 'N' } } }, { app: 'a' }, /"collections"/);
    expectFailure({ apps: { a: { models: { N: {} }, collections: ['N'] } } }, { collection: 'N' }, /name of a model/);
    expectFailure({ apps: { a: { controllers: 3 } } }, { app: 'a' }, /"controllers" must be a path/);
  });

  it('refuses a non-object workspace and names "(in memory)" without a file', () => {
    expect(() => resolveWorkspace([], null)).toThrow('Invalid workspace (in memory): the workspace must be an object');
  });
});

describe('loadWorkspace', () => {
  // Removed when the file ends (testing/fixture.ts).
  const dir = tempDir('jql-ws-');

  it('reads a file and resolves module paths beside it', () => {
    const file = path.join(dir, 'ok.json');
    writeFileSync(file, JSON.stringify({ apps: { a: { hooks: './hooks/a.mjs' } } }));
    const ws = loadWorkspace(file);
    expect(ws.file).toBe(file);
    expect(ws.apps.get('a')?.hooksPath).toBe(path.join(dir, 'hooks/a.mjs'));
  });

  it('names the file when it is missing or not JSON', () => {
    const missing = path.join(dir, 'missing.json');
    expect(() => loadWorkspace(missing)).toThrow(`Invalid workspace ${missing}: file not found`);
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{"apps": ');
    // The end of the file is where the JSON breaks: its line and column, as an editor counts them.
    expect(() => loadWorkspace(bad)).toThrow(`Invalid workspace ${bad}:1:10: not valid JSON: the file ends where a value (an object, array, string, number, true, false or null) was expected: the JSON is incomplete.`);
    writeFileSync(bad, '{\n  "apps": {\n    "a": {"models": {}},\n  }\n}\n');
    expect(() => loadWorkspace(bad)).toThrow(`Invalid workspace ${bad}:4:3: not valid JSON: a property name in double quotes was expected, found "}".`);
  });
});
