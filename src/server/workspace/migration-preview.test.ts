// The migration preview classifies every kind of change against a real SQLite database: additive,
// lossy (stored values no longer served) and refused (stored values that do not fit), with the rows
// each touches and a sample of the values.
import { describe, expect, it } from 'vitest';
import type { Sqlite } from '../db/database.ts';
import { memoryDatabase } from '../testing/sqlite.ts';
import { migrate } from './migrate.ts';
import { formatPreview, previewMigration, type MigrationPreview } from './migration-preview.ts';
import { resolveWorkspace } from './resolve.ts';

const BASE = {
  name: 'shop',
  apps: {
    shop: {
      models: {
        Item: {
          fields: {
            name: { type: 'string', required: true },
            note: { type: 'string', null: true },
            code: { type: 'string', null: true },
            price: { type: 'integer', null: true },
          },
        },
        Tag: { fields: { label: { type: 'string', required: true } } },
      },
    },
  },
};

type Raw = typeof BASE;
const clone = (): Raw => structuredClone(BASE);
const fields = (raw: Raw) => raw.apps.shop.models.Item.fields as Record<string, Record<string, unknown>>;

/** The preview of `edit` over a database made by BASE and holding a few rows. */
function preview(edit: (raw: Raw) => unknown): MigrationPreview {
  const before = resolveWorkspace(clone(), null);
  const after = resolveWorkspace(edit(clone()) ?? clone(), null);
  let result: MigrationPreview | null = null;
  const { db } = memoryDatabase((connection: Sqlite) => {
    migrate(connection, before);
    const insert = connection.prepare('INSERT INTO "shop.Item" ("name", "note", "code", "price") VALUES (?, ?, ?, ?)');
    insert.run('pen', 'blue', 'A1', 3);
    insert.run('cup', null, 'A1', 5);
    insert.run('hat', 'red', null, null);
    result = previewMigration(connection, before, after);
  });
  db.close();
  return result as unknown as MigrationPreview;
}

const kinds = (p: MigrationPreview) => p.changes.map((c) => `${c.kind} ${c.target}`);

describe('migration preview', () => {
  it('calls nothing to lose when the workspace is the same', () => {
    expect(preview((raw) => raw)).toEqual({ changes: [], losesData: false });
  });

  it('classifies new models, fields, indexes, permissions and limits as additive', () => {
    const p = preview((raw) => {
      fields(raw).color = { type: 'string', null: true };
      (raw.apps.shop.models as Record<string, unknown>).Order = { fields: { total: { type: 'integer' } } };
      (raw.apps.shop.models.Item as Record<string, unknown>).permissions = { retrieve: ['anyone'] };
      (raw as Record<string, unknown>).limits = { defaultLimit: 10 };
      return raw;
    });
    expect(kinds(p)).toEqual(['additive shop.Item.color', 'additive shop.Item', 'additive shop.Order', 'additive limits']);
    expect(p.losesData).toBe(false);
  });

  it('calls a removed field that holds values lossy, with the rows and a sample', () => {
    const p = preview((raw) => {
      delete fields(raw).note;
      return raw;
    });
    expect(p.changes).toEqual([
      { kind: 'lossy', target: 'shop.Item.note', what: 'field removed: 2 rows hold values that would no longer be served (the column is kept)', rows: 2, sample: ['blue', 'red'] },
    ]);
    expect(p.losesData).toBe(true);
    expect(formatPreview(p)).toBe(
      [
        'Migration preview (1 change):',
        '  LOSES   shop.Item.note: field removed: 2 rows hold values that would no longer be served (the column is kept) (e.g. "blue", "red")',
        'This change would lose or refuse stored data: nothing is applied until it is approved.',
      ].join('\n'),
    );
  });

  it('calls a renamed model that holds rows lossy, and an empty one additive', () => {
    const p = preview((raw) => {
      const models = raw.apps.shop.models as Record<string, unknown>;
      models.Product = models.Item;
      delete models.Item;
      delete models.Tag;
      return raw;
    });
    expect(kinds(p)).toEqual(['additive shop.Product', 'lossy shop.Item', 'additive shop.Tag']);
    expect(p.changes[1]).toMatchObject({ rows: 3 });
  });

  it('refuses a narrowed type, a null: false over NULLs, a unique index over duplicates, a required field with no default', () => {
    const p = preview((raw) => {
      fields(raw).price = { type: 'string', null: true };
      fields(raw).note = { type: 'string', null: false, default: '' };
      fields(raw).code = { type: 'string', null: true, unique: true };
      fields(raw).sku = { type: 'string', required: true };
      return raw;
    });
    expect(p.changes).toEqual([
      { kind: 'refused', target: 'shop.Item.note', what: 'made not nullable while 1 rows hold NULL in it', rows: 1, sample: ['id 2'] },
      { kind: 'refused', target: 'shop.Item.price', what: 'type changed from integer to string: 2 stored values would not be read as string', rows: 2, sample: [3, 5] },
      { kind: 'refused', target: 'shop.Item.sku', what: 'new required field without a "default": the table already holds 3 rows', rows: 3 },
      { kind: 'refused', target: 'shop.Item.code', what: 'made unique while values repeat ("A1" ×2)', rows: 2, sample: ['A1'] },
    ]);
    expect(p.losesData).toBe(true);
  });

  it('previews a fresh data folder as all additive', () => {
    const ws = resolveWorkspace(clone(), null);
    let p: MigrationPreview | null = null;
    const { db } = memoryDatabase((connection) => {
      p = previewMigration(connection, null, ws);
    });
    db.close();
    expect((p as unknown as MigrationPreview).losesData).toBe(false);
    expect(kinds(p as unknown as MigrationPreview)).toContain('additive shop.Item');
  });
});
