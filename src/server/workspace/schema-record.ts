/**
 * The migration bookkeeping tables: `jql_migrations` (one row per start that changed the schema, and
 * one per workspace `serve --watch` applied, with the digest of the workspace it applied)
 * and `jql_schema` (each model field's type and strictness as last migrated, kept for removed
 * fields too, so a later start can tell a type change or a newly required field from a new one).
 */
import type { Sqlite } from '../db/database.ts';
import type { FieldType } from '../../shared/protocol.ts';
import type { FieldDef } from './types.ts';

export interface FieldRecord {
  model: string;
  field: string;
  type: FieldType;
  /** A ref field's target model key. */
  target: string | null;
  nullable: boolean;
  required: boolean;
  /** Still in the workspace; a removed field keeps its row and its column. */
  active: boolean;
}

interface FieldRow {
  model: string;
  field: string;
  type: FieldType;
  target: string | null;
  nullable: number;
  required: number;
  active: number;
}

export function ensureRecordTables(db: Sqlite): void {
  db.exec(`CREATE TABLE IF NOT EXISTS jql_migrations (
    id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, summary TEXT NOT NULL, digest TEXT)`);
  // Data folders made before the digest was recorded: their rows keep a NULL digest.
  const columns = db.prepare('PRAGMA table_info(jql_migrations)').all() as Array<{ name: string }>;
  if (!columns.some((column) => column.name === 'digest')) db.exec('ALTER TABLE jql_migrations ADD COLUMN digest TEXT');
  db.exec(`CREATE TABLE IF NOT EXISTS jql_schema (
    model TEXT NOT NULL, field TEXT NOT NULL, type TEXT NOT NULL, target TEXT,
    nullable INTEGER NOT NULL, required INTEGER NOT NULL, active INTEGER NOT NULL,
    PRIMARY KEY (model, field))`);
}

/** Every recorded field, keyed by model key then field name. */
export function readFieldRecords(db: Sqlite): Map<string, Map<string, FieldRecord>> {
  const rows = db.prepare('SELECT model, field, type, target, nullable, required, active FROM jql_schema').all() as FieldRow[];
  const byModel = new Map<string, Map<string, FieldRecord>>();
  for (const row of rows) {
    let fields = byModel.get(row.model);
    if (!fields) byModel.set(row.model, (fields = new Map()));
    fields.set(row.field, { ...row, nullable: row.nullable === 1, required: row.required === 1, active: row.active === 1 });
  }
  return byModel;
}

export function writeFieldRecord(db: Sqlite, model: string, field: FieldDef): void {
  db.prepare(
    `INSERT INTO jql_schema (model, field, type, target, nullable, required, active) VALUES (?, ?, ?, ?, ?, ?, 1)
     ON CONFLICT (model, field) DO UPDATE SET type = excluded.type, target = excluded.target,
       nullable = excluded.nullable, required = excluded.required, active = 1`,
  ).run(model, field.name, field.type, field.to ?? null, field.nullable ? 1 : 0, field.required ? 1 : 0);
}

export function deactivateFieldRecord(db: Sqlite, model: string, field: string): void {
  db.prepare('UPDATE jql_schema SET active = 0 WHERE model = ? AND field = ?').run(model, field);
}

/** `digest`: the workspace's (workspace-digest.ts), the one `/healthz` reports while it runs. */
export function recordMigration(db: Sqlite, at: string, summary: string, digest: string): number {
  return Number(db.prepare('INSERT INTO jql_migrations (at, summary, digest) VALUES (?, ?, ?)').run(at, summary, digest).lastInsertRowid);
}
