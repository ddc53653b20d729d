import { openDatabase, type Sqlite } from '../db/database.ts';
import { describe, it, expect } from 'vitest';
import { WorkspaceError } from './errors.ts';
import { columnSqlType, migrate } from './migrate.ts';
import { resolveWorkspace } from './resolve.ts';
import { workspaceDigest } from './workspace-digest.ts';

function openDb(): Sqlite {
  const db = openDatabase(':memory:');
  db.pragma('foreign_keys = ON');
  return db;
}

/** A workspace holding `shop.Item` with the given fields (and `shop.Tag` when asked). */
function shop(fields: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return resolveWorkspace({ apps: { shop: { models: { Item: { fields, ...extra } } } } }, '/srv/ws.json');
}

/** Everything a refused migration must leave as it was. */
function snapshot(db: Sqlite): unknown {
  return {
    master: db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all(),
    schema: db.prepare('SELECT * FROM jql_schema ORDER BY model, field').all(),
    migrations: db.prepare('SELECT * FROM jql_migrations').all(),
    items: db.prepare('SELECT * FROM "shop.Item" ORDER BY id').all(),
  };
}

function migrationError(db: Sqlite, ws: ReturnType<typeof shop>): WorkspaceError {
  try {
    migrate(db, ws);
  } catch (error) {
    expect(error).toBeInstanceOf(WorkspaceError);
    return error as WorkspaceError;
  }
  throw new Error('expected the migration to be refused');
}

const columns = (db: Sqlite, table: string) => (db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string; type: string; notnull: number }>).map((c) => `${c.name} ${c.type}`);
const indexes = (db: Sqlite, table: string) => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'jql%' ORDER BY name").all(table) as Array<{ name: string }>).map((r) => r.name);

describe('columnSqlType', () => {
  it('maps field types to SQLite column types', () => {
    expect(['string', 'text', 'date', 'datetime', 'json', 'file'].map((t) => columnSqlType(t as 'string'))).toEqual(Array(6).fill('TEXT'));
    expect(columnSqlType('integer')).toBe('INTEGER');
    expect(columnSqlType('ref')).toBe('INTEGER');
    expect(columnSqlType('boolean')).toBe('INTEGER');
    expect(columnSqlType('number')).toBe('REAL');
  });
});

describe('migrate: a fresh database', () => {
  const ws = shop(
    {
      title: { type: 'string', required: true },
      code: { type: 'string', unique: true, null: true },
      price: { type: 'number', default: 0 },
      owner: { type: 'ref', to: 'system.User', null: true },
      maker: { type: 'ref', to: 'system.User' },
      data: { type: 'json', null: true },
    },
    { indexes: [['title', 'price']] },
  );

  it('creates every table with typed columns, foreign keys and indexes, and records it', () => {
    const db = openDb();
    const report = migrate(db, ws);
    expect(report.createdTables).toEqual(['system.User', 'shop.Item']);
    expect(report.migrationId).toBe(1);
    expect(columns(db, 'shop.Item')).toEqual(['id INTEGER', 'title TEXT', 'code TEXT', 'price REAL', 'owner INTEGER', 'maker INTEGER', 'data TEXT']);
    const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'shop.Item'").get() as { sql: string }).sql;
    expect(sql).toContain('id INTEGER PRIMARY KEY AUTOINCREMENT');
    expect(sql).toContain('"owner" INTEGER REFERENCES "system.User"(id) ON DELETE SET NULL');
    expect(sql).toContain('"maker" INTEGER REFERENCES "system.User"(id) ON DELETE RESTRICT');
    expect(sql).not.toMatch(/NOT NULL|CHECK/);
    expect(indexes(db, 'shop.Item')).toEqual(['jql_ix:shop.Item:maker', 'jql_ix:shop.Item:owner', 'jql_ix:shop.Item:title,price', 'jql_uq:shop.Item:code']);
    expect(indexes(db, 'system.User')).toEqual(['jql_uq:system.User:username']);
    expect(db.prepare("SELECT type, target, nullable, required, active FROM jql_schema WHERE model = 'shop.Item' AND field = 'owner'").get()).toEqual({ type: 'ref', target: 'system.User', nullable: 1, required: 0, active: 1 });
    const migration = db.prepare('SELECT summary FROM jql_migrations').get() as { summary: string };
    expect(migration.summary).toContain('shop.Item: table created');
  });

  it('is idempotent: a second run changes and records nothing', () => {
    const db = openDb();
    migrate(db, ws);
    const before = snapshot(db);
    const report = migrate(db, ws);
    expect(report).toEqual({ changes: [], createdTables: [], addedColumns: [], migrationId: null });
    expect(snapshot(db)).toEqual(before);
  });

  it('applies the reference actions: SET NULL when nullable, RESTRICT otherwise', () => {
    const db = openDb();
    migrate(db, ws);
    db.prepare('INSERT INTO "system.User" (username) VALUES (?), (?)').run('a', 'b');
    db.prepare('INSERT INTO "shop.Item" (title, owner, maker) VALUES (?, ?, ?)').run('x', 1, 2);
    db.prepare('DELETE FROM "system.User" WHERE id = 1').run();
    expect(db.prepare('SELECT owner FROM "shop.Item"').get()).toEqual({ owner: null });
    expect(() => db.prepare('DELETE FROM "system.User" WHERE id = 2').run()).toThrow(/FOREIGN KEY/);
  });
});

describe('migrate: changes to an existing database', () => {
  function seeded(fields: Record<string, unknown> = { title: { type: 'string' }, n: { type: 'integer', null: true } }): Sqlite {
    const db = openDb();
    migrate(db, shop(fields));
    db.prepare('INSERT INTO "shop.Item" (title, n) VALUES (?, ?), (?, ?)').run('a', 1, 'b', null);
    return db;
  }
  const base = { title: { type: 'string' }, n: { type: 'integer', null: true } };

  it('adds new fields and sets their defaults on existing rows', () => {
    const db = seeded();
    const report = migrate(db, shop({ ...base, flag: { type: 'boolean', default: true }, tags: { type: 'json', default: ['x'] }, note: { type: 'text', null: true }, at: { type: 'datetime', auto: 'create' } }));
    expect(report.addedColumns).toEqual(['shop.Item.flag', 'shop.Item.tags', 'shop.Item.note', 'shop.Item.at']);
    expect(db.prepare('SELECT flag, tags, note, at FROM "shop.Item" ORDER BY id').all()).toEqual([
      { flag: 1, tags: '["x"]', note: null, at: null },
      { flag: 1, tags: '["x"]', note: null, at: null },
    ]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM jql_migrations').get()).toEqual({ n: 2 });
  });

  it('adds a required field without a default to an empty table', () => {
    const db = openDb();
    migrate(db, shop(base));
    expect(migrate(db, shop({ ...base, code: { type: 'string' } })).addedColumns).toEqual(['shop.Item.code']);
  });

  it('refuses a new required field without a default on a table with rows, changing nothing', () => {
    const db = seeded();
    const before = snapshot(db);
    // `extra` would be fine alone: it must be rolled back with the refused field.
    const error = migrationError(db, shop({ ...base, extra: { type: 'text', null: true }, code: { type: 'string' } }));
    expect(error.message).toBe('Cannot migrate workspace /srv/ws.json: app "shop", model "Item", field "code": a new required field needs a "default" (or "null": true): the table already holds 2 rows');
    expect(snapshot(db)).toEqual(before);
  });

  it('refuses a type change, changing nothing', () => {
    const db = seeded();
    const before = snapshot(db);
    const error = migrationError(db, shop({ title: { type: 'string' }, n: { type: 'text', null: true }, extra: { type: 'text', null: true } }));
    expect(error).toMatchObject({ app: 'shop', model: 'Item', field: 'n' });
    expect(error.message).toMatch(/field "n": the type changed from integer to text/);
    expect(snapshot(db)).toEqual(before);
  });

  it('refuses making a field required while rows hold NULL in it, changing nothing', () => {
    const db = seeded();
    const before = snapshot(db);
    const error = migrationError(db, shop({ title: { type: 'string' }, n: { type: 'integer' }, extra: { type: 'text', null: true } }));
    expect(error.message).toMatch(/app "shop", model "Item", field "n": made required while 1 rows hold NULL in it/);
    expect(snapshot(db)).toEqual(before);
    // Without NULLs the same change goes through.
    db.prepare('UPDATE "shop.Item" SET n = 0 WHERE n IS NULL').run();
    expect(migrate(db, shop({ title: { type: 'string' }, n: { type: 'integer' } })).changes).toEqual(['shop.Item.n: now not nullable, required']);
  });

  it('keeps a removed field\'s column and data, keeps creates working, and serves the data again when re-added', () => {
    const db = seeded({ title: { type: 'string' }, n: { type: 'integer', null: true }, code: { type: 'string', unique: true } });
    db.prepare('UPDATE "shop.Item" SET code = \'c\' || id').run();
    const removed = migrate(db, shop(base));
    expect(removed.changes).toContain('shop.Item.code: removed from the workspace (column and data kept)');
    expect(columns(db, 'shop.Item')).toContain('code TEXT');
    expect(indexes(db, 'shop.Item')).not.toContain('jql_uq:shop.Item:code');
    // A create that no longer knows the (once required, unique) field still works, twice.
    db.prepare('INSERT INTO "shop.Item" (title) VALUES (?), (?)').run('c', 'd');
    const readded = migrate(db, shop({ ...base, code: { type: 'string', null: true, unique: true } }));
    expect(readded.changes).toContain('shop.Item.code: re-added, kept column served again');
    expect(db.prepare('SELECT code FROM "shop.Item" ORDER BY id').all()).toEqual([{ code: 'c1' }, { code: 'c2' }, { code: null }, { code: null }]);
    expect(indexes(db, 'shop.Item')).toContain('jql_uq:shop.Item:code');
  });

  it('fills a re-added field\'s default on rows written while it was gone, and refuses it required without one', () => {
    const db = seeded({ ...base, level: { type: 'integer', default: 1 } });
    db.prepare('UPDATE "shop.Item" SET level = 1').run();
    migrate(db, shop(base));
    db.prepare('INSERT INTO "shop.Item" (title) VALUES (?)').run('c');
    const before = snapshot(db);
    expect(migrationError(db, shop({ ...base, level: { type: 'integer' } })).message).toMatch(/field "level": the field is required again but 1 rows hold NULL/);
    expect(snapshot(db)).toEqual(before);
    expect(migrationError(db, shop({ ...base, level: { type: 'number', default: 1 } })).message).toMatch(/field "level": the type changed from integer to number/);
    migrate(db, shop({ ...base, level: { type: 'integer', default: 2 } }));
    expect(db.prepare('SELECT level FROM "shop.Item" ORDER BY id').all()).toEqual([{ level: 1 }, { level: 1 }, { level: 2 }]);
  });

  it('refuses a new unique index over duplicates, changing nothing', () => {
    const db = seeded();
    db.prepare('INSERT INTO "shop.Item" (title) VALUES (?)').run('a');
    const before = snapshot(db);
    const error = migrationError(db, shop({ title: { type: 'string', unique: true }, n: { type: 'integer', null: true } }));
    expect(error.message).toBe('Cannot migrate workspace /srv/ws.json: app "shop", model "Item", field "title": cannot become unique: 2 rows hold the value "a"');
    expect(snapshot(db)).toEqual(before);
    db.prepare("DELETE FROM \"shop.Item\" WHERE id = 3").run();
    migrate(db, shop({ title: { type: 'string', unique: true }, n: { type: 'integer', null: true } }));
    expect(indexes(db, 'shop.Item')).toEqual(['jql_uq:shop.Item:title']);
  });

  it('keeps a removed model\'s table and marks its fields inactive', () => {
    const db = seeded();
    const report = migrate(db, resolveWorkspace({}, null));
    expect(report.changes).toEqual(['shop.Item: model removed from the workspace (table and data kept)']);
    expect(db.prepare('SELECT COUNT(*) AS n FROM "shop.Item"').get()).toEqual({ n: 2 });
    expect(db.prepare("SELECT DISTINCT active FROM jql_schema WHERE model = 'shop.Item'").all()).toEqual([{ active: 0 }]);
  });
});

describe('migrate: the digest of the workspace applied', () => {
  it('opens a data folder made before migrations recorded a digest: old rows keep none, new ones carry it', () => {
    const db = openDb();
    // jql_migrations as data folders made before the digest column have it.
    db.exec('CREATE TABLE jql_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, summary TEXT NOT NULL)');
    db.prepare('INSERT INTO jql_migrations (at, summary) VALUES (?, ?)').run('2026-01-01T00:00:00.000Z', 'an older start');
    const ws = shop({ title: { type: 'string', null: true } });
    migrate(db, ws);
    expect(db.prepare('SELECT summary, digest FROM jql_migrations ORDER BY id').all()).toEqual([
      { summary: 'an older start', digest: null },
      { summary: expect.stringContaining('shop.Item: table created'), digest: workspaceDigest(ws) },
    ]);
  });

  it('records a workspace that changes no table only when asked to (serve --watch records every apply)', () => {
    const db = openDb();
    const ws = shop({ title: { type: 'string', null: true } });
    migrate(db, ws);
    expect(migrate(db, ws).migrationId).toBeNull();
    const applied = migrate(db, ws, { unchanged: 'no table changed' });
    expect(db.prepare('SELECT summary, digest FROM jql_migrations WHERE id = ?').get(applied.migrationId)).toEqual({ summary: 'no table changed', digest: workspaceDigest(ws) });
  });
});
