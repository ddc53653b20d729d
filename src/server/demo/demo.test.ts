import { existsSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../db/database.ts';
import { describe, it, expect } from 'vitest';
import type { JsonValue } from '../../shared/protocol.ts';
import type { FieldDef, ModelDef } from '../workspace/types.ts';
import { loadWorkspace } from '../workspace/resolve.ts';
import { migrate } from '../workspace/migrate.ts';
import { demoSeed, demoWorkspacePath } from './seed.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A deliberately small, independent type check: what a record may hold for each field type. */
function fits(field: FieldDef, value: JsonValue): boolean {
  if (value === null) return field.nullable;
  if (field.choices && !field.choices.includes(value)) return false;
  switch (field.type) {
    case 'string':
    case 'text':
      return typeof value === 'string' && (field.maxLength === undefined || value.length <= field.maxLength);
    case 'integer':
    case 'ref':
      return Number.isInteger(value) && (field.min === undefined || (value as number) >= field.min) && (field.max === undefined || (value as number) <= field.max);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'datetime':
      return typeof value === 'string' && ISO.test(value);
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
    case 'json':
      return true;
    case 'file':
      return false;
  }
}

function problems(model: ModelDef, record: Record<string, JsonValue>): string[] {
  const found: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    const field = model.fields.get(key);
    if (!field) found.push(`${key}: unknown field`);
    else if (!fits(field, value)) found.push(`${key}: ${JSON.stringify(value)} does not fit ${field.type}`);
  }
  for (const field of model.fields.values()) if (field.required && !(field.name in record)) found.push(`${field.name}: missing`);
  return found;
}

describe('demo workspace', () => {
  it('lives at an absolute path and resolves with every namespace docs/workspace.md names', () => {
    const file = demoWorkspacePath();
    expect(path.isAbsolute(file) && existsSync(file)).toBe(true);
    const ws = loadWorkspace(file);
    expect([...ws.models.keys()].sort()).toEqual(
      ['system.User', 'tickets.Ticket', 'tickets.Document', 'objects.Object', 'objects.Document', 'documents.Folder', 'documents.Document', 'learning.LearningContentRegistration', 'filemanager.File'].sort(),
    );
    expect([...ws.collections.keys()]).toEqual(['chat.Message']);
    expect(ws.models.get('tickets.Ticket')?.permissions?.intents.retrieve).toEqual(['anyone']);
  });

  it('migrates into an empty database, and a second time changes nothing', () => {
    const db = openDatabase(':memory:');
    db.pragma('foreign_keys = ON');
    const ws = loadWorkspace(demoWorkspacePath());
    expect(migrate(db, ws).createdTables).toHaveLength(ws.models.size);
    expect(migrate(db, ws).changes).toEqual([]);
  });
});

describe('demoSeed', () => {
  const ws = loadWorkspace(demoWorkspacePath());

  it('is deterministic', () => {
    expect(JSON.stringify(demoSeed())).toBe(JSON.stringify(demoSeed()));
  });

  it('holds the users, a few hundred tickets and the other demo records', () => {
    const seed = demoSeed();
    const count = (model: string) => seed.find((s) => s.model === model)?.records.length;
    const users = seed.find((s) => s.model === 'system.User')?.records ?? [];
    expect(users.map((u) => [u.username, u.roles])).toEqual([['admin', ['admin']], ['agent', ['agent']], ['viewer', []]]);
    expect(users.every((u) => !('password' in u))).toBe(true);
    expect(count('tickets.Ticket')).toBe(300);
    expect(count('chat.Message')).toBe(60);
    expect(count('documents.Folder')).toBeGreaterThan(0);
    expect(count('documents.Document')).toBeGreaterThan(0);
    expect(count('objects.Object')).toBeGreaterThan(0);
    const tickets = seed.find((s) => s.model === 'tickets.Ticket')?.records ?? [];
    expect(new Set(tickets.map((t) => t.status))).toEqual(new Set(['open', 'pending', 'closed']));
    expect(new Set(tickets.map((t) => t.assignee))).toEqual(new Set([1, 2, 3, null]));
  });

  it('gives every model record values that fit its fields', () => {
    for (const { model, records } of demoSeed()) {
      const def = ws.models.get(model);
      if (!def) {
        expect(ws.collections.has(model)).toBe(true);
        continue;
      }
      for (const record of records) expect(problems(def, record), `${model} ${JSON.stringify(record)}`).toEqual([]);
    }
  });

  it('gives chat messages a room, an author name, a text and a time', () => {
    const messages = demoSeed().find((s) => s.model === 'chat.Message')?.records ?? [];
    expect(new Set(messages.map((m) => m.room)).size).toBe(3);
    for (const m of messages) {
      expect(typeof m.room === 'string' && typeof m.text === 'string' && typeof (m.author as { name?: unknown }).name === 'string').toBe(true);
      expect(m.sent_at).toMatch(ISO);
    }
  });

  it('inserts into the migrated tables in order with its references intact', () => {
    const db = openDatabase(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, ws);
    for (const { model, records } of demoSeed()) {
      const def = ws.models.get(model);
      if (!def) continue;
      for (const record of records) {
        const keys = Object.keys(record);
        const values = keys.map((k) => {
          const v = record[k];
          return typeof v === 'boolean' ? Number(v) : v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
        });
        db.prepare(`INSERT INTO "${def.table}" (${keys.map((k) => `"${k}"`).join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`).run(...values);
      }
    }
    expect(db.prepare('SELECT COUNT(*) AS n FROM "tickets.Ticket" t JOIN "system.User" u ON u.id = t.assignee').get()).toEqual({ n: expect.any(Number) });
    expect(db.prepare('SELECT COUNT(*) AS n FROM "documents.Document" d JOIN "documents.Folder" f ON f.id = d.folder').get()).toEqual({ n: 12 });
  });
});
