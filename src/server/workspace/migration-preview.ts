/**
 * The migration preview (docs/workspace.md "Changing a workspace while it runs"): what a new
 * workspace would do to an existing data folder, before anything is done. Each change is
 *
 * - `additive`: a new model, field, index, or a change of permissions, limits or controllers; nothing
 *   stored is touched (migrate.ts applies it in one transaction);
 * - `lossy`: stored values the API would no longer serve: a removed field that holds values, a removed
 *   (or renamed) model that holds rows. migrate.ts keeps the column and the table, but the values are
 *   gone from every answer, so it is applied only when someone says so;
 * - `refused`: a change migrate.ts refuses because stored values do not fit it: a type changed, a
 *   field made required or not nullable over NULLs, a unique index over duplicates, a new required
 *   field without a default on a table that has rows.
 *
 * with the rows it touches and a sample of the values. Read-only: it only runs SELECTs.
 */
import type { JsonValue } from '../../shared/protocol.ts';
import type { Sqlite } from '../db/database.ts';
import { readFieldRecords, type FieldRecord } from './schema-record.ts';
import { quoteIdent, wantedIndexes } from './schema-sql.ts';
import type { ModelDef, Workspace } from './types.ts';

export type ChangeKind = 'additive' | 'lossy' | 'refused';

export interface PreviewChange {
  kind: ChangeKind;
  /** `app.Model` or `app.Model.field`. */
  target: string;
  /** The change, in a sentence. */
  what: string;
  /** The rows it touches (values lost or refused), when any. */
  rows?: number;
  /** A few of those values. */
  sample?: JsonValue[];
}

export interface MigrationPreview {
  changes: PreviewChange[];
  /** Something stored would no longer be served, or could not be kept as the file says. */
  losesData: boolean;
}

const SAMPLE = 3;

export function previewMigration(db: Sqlite, before: Workspace | null, after: Workspace): MigrationPreview {
  const changes: PreviewChange[] = [];
  const recorded = hasTable(db, 'jql_schema') ? readFieldRecords(db) : new Map<string, Map<string, FieldRecord>>();
  for (const model of after.models.values()) {
    const fields = recorded.get(model.key);
    const active = fields ? [...fields.values()].some((f) => f.active) : false;
    if (!hasTable(db, model.table) || !active) {
      if (!hasTable(db, model.table) || !before?.models.has(model.key)) changes.push({ kind: 'additive', target: model.key, what: 'new model' });
      continue;
    }
    previewModel(db, model, fields ?? new Map(), changes);
    const previous = before?.models.get(model.key);
    if (previous && JSON.stringify(previous.permissions) !== JSON.stringify(model.permissions)) changes.push({ kind: 'additive', target: model.key, what: 'permissions changed' });
  }
  for (const [key, fields] of recorded) {
    if (after.models.has(key) || ![...fields.values()].some((f) => f.active) || !hasTable(db, key)) continue;
    const rows = count(db, `SELECT COUNT(*) AS n FROM ${quoteIdent(key)}`);
    if (rows === 0) changes.push({ kind: 'additive', target: key, what: 'model removed (its table is empty)' });
    else changes.push({ kind: 'lossy', target: key, what: `model removed or renamed: its ${rows} rows would no longer be served (the table is kept)`, rows });
  }
  if (before && JSON.stringify(before.limits) !== JSON.stringify(after.limits)) changes.push({ kind: 'additive', target: 'limits', what: 'limits changed' });
  if (before) {
    for (const app of after.apps.values()) {
      const old = before.apps.get(app.name);
      if (old?.controllersPath !== app.controllersPath || old?.hooksPath !== app.hooksPath) {
        if (app.controllersPath !== undefined || app.hooksPath !== undefined || old) changes.push({ kind: 'additive', target: app.name, what: 'controllers or hooks module changed' });
      }
    }
  }
  return { changes, losesData: changes.some((c) => c.kind !== 'additive') };
}

function previewModel(db: Sqlite, model: ModelDef, recorded: Map<string, FieldRecord>, changes: PreviewChange[]): void {
  const table = quoteIdent(model.table);
  const rows = count(db, `SELECT COUNT(*) AS n FROM ${table}`);
  const columns = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name));
  for (const field of model.fields.values()) {
    const target = `${model.key}.${field.name}`;
    const before = recorded.get(field.name);
    if (!columns.has(field.column) || !before || !before.active) {
      if (!columns.has(field.column) && rows > 0 && field.required && (field.default === undefined || field.default === null)) {
        changes.push({ kind: 'refused', target, what: `new required field without a "default": the table already holds ${rows} rows`, rows });
      } else if (!before?.active) changes.push({ kind: 'additive', target, what: before ? 'field added again (its kept values are served again)' : 'new field' });
      continue;
    }
    const column = quoteIdent(field.column);
    if (before.type !== field.type || before.target !== (field.to ?? null)) {
      const held = values(db, table, column, `${column} IS NOT NULL`);
      const was = before.target ? `ref to ${before.target}` : before.type;
      const now = field.to ? `ref to ${field.to}` : field.type;
      changes.push({ kind: held.rows > 0 ? 'refused' : 'additive', target, what: `type changed from ${was} to ${now}${held.rows > 0 ? `: ${held.rows} stored values would not be read as ${now}` : ''}`, ...held });
    }
    const stricter = (before.nullable && !field.nullable && field.auto === undefined) || (!before.required && field.required);
    if (stricter) {
      const nulls = count(db, `SELECT COUNT(*) AS n FROM ${table} WHERE ${column} IS NULL`);
      const what = `made ${field.required ? 'required' : 'not nullable'}`;
      if (nulls > 0) changes.push({ kind: 'refused', target, what: `${what} while ${nulls} rows hold NULL in it`, rows: nulls, sample: ids(db, table, `${column} IS NULL`) });
      else changes.push({ kind: 'additive', target, what });
    }
  }
  for (const index of wantedIndexes(model).filter((i) => i.unique)) {
    const column = quoteIdent(index.columns[0] as string);
    if (!columns.has(index.columns[0] as string)) continue;
    const dupes = db.prepare(`SELECT ${column} AS v, COUNT(*) AS n FROM ${table} WHERE ${column} IS NOT NULL GROUP BY ${column} HAVING COUNT(*) > 1 LIMIT ${SAMPLE}`).all() as Array<{ v: JsonValue; n: number }>;
    const existing = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(index.name) !== undefined;
    if (dupes.length > 0 && !existing) {
      const rowsHit = dupes.reduce((sum, d) => sum + d.n, 0);
      changes.push({ kind: 'refused', target: `${model.key}.${index.columns[0]}`, what: `made unique while values repeat (${dupes.map((d) => `${JSON.stringify(d.v)} ×${d.n}`).join(', ')})`, rows: rowsHit, sample: dupes.map((d) => d.v) });
    }
  }
  for (const record of recorded.values()) {
    if (!record.active || model.fields.has(record.field) || !columns.has(record.field)) continue;
    const held = values(db, table, quoteIdent(record.field), `${quoteIdent(record.field)} IS NOT NULL`);
    const target = `${model.key}.${record.field}`;
    if (held.rows === 0) changes.push({ kind: 'additive', target, what: 'field removed (it holds no values)' });
    else changes.push({ kind: 'lossy', target, what: `field removed: ${held.rows} rows hold values that would no longer be served (the column is kept)`, ...held });
  }
}

function values(db: Sqlite, table: string, column: string, where: string): { rows: number; sample: JsonValue[] } {
  const rows = count(db, `SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`);
  const sample = (db.prepare(`SELECT ${column} AS v FROM ${table} WHERE ${where} ORDER BY "id" LIMIT ${SAMPLE}`).all() as Array<{ v: JsonValue }>).map((r) => r.v);
  return { rows, sample };
}

function ids(db: Sqlite, table: string, where: string): JsonValue[] {
  return (db.prepare(`SELECT "id" AS id FROM ${table} WHERE ${where} ORDER BY "id" LIMIT ${SAMPLE}`).all() as Array<{ id: number }>).map((r) => `id ${r.id}`);
}

function count(db: Sqlite, sql: string): number {
  return (db.prepare(sql).get() as { n: number }).n;
}

function hasTable(db: Sqlite, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** The preview as a person reads it (the terminal, the console's dialog). */
export function formatPreview(preview: MigrationPreview): string {
  if (preview.changes.length === 0) return 'No change to the stored schema.';
  const label: Record<ChangeKind, string> = { additive: 'add     ', lossy: 'LOSES   ', refused: 'REFUSED ' };
  const lines = preview.changes.map((c) => {
    const sample = c.sample && c.sample.length > 0 ? ` (e.g. ${c.sample.map((v) => JSON.stringify(v)).join(', ')})` : '';
    return `  ${label[c.kind]}${c.target}: ${c.what}${sample}`;
  });
  const verdict = preview.losesData ? 'This change would lose or refuse stored data: nothing is applied until it is approved.' : 'Nothing stored is lost.';
  return [`Migration preview (${preview.changes.length} change${preview.changes.length === 1 ? '' : 's'}):`, ...lines, verdict].join('\n');
}
