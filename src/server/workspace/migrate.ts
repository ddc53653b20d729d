/**
 * Brings the SQLite tables in line with the workspace, additively and in one transaction (docs/workspace.md):
 * new models and fields are added (defaults filled on existing rows), removed ones keep their columns
 * and data, and an incompatible change is refused with a WorkspaceError before anything is kept.
 */
import type { Sqlite } from '../db/database.ts';
import type { FieldDef, ModelDef, Workspace } from './types.ts';
import type { FieldRecord } from './schema-record.ts';
import { WorkspaceError } from './errors.ts';
import { deactivateFieldRecord, ensureRecordTables, readFieldRecords, recordMigration, writeFieldRecord } from './schema-record.ts';
import type { IndexSpec } from './schema-sql.ts';
import { INDEX_PREFIX, UNIQUE_PREFIX, columnDefinition, columnSqlType, createIndexSql, createTableSql, quoteIdent, wantedIndexes } from './schema-sql.ts';
import { toStored } from './field-codec.ts';
import { workspaceDigest } from './workspace-digest.ts';

export { columnSqlType } from './schema-sql.ts';

export interface MigrationReport {
  /** One line per change; empty when the database already matched. */
  changes: string[];
  createdTables: string[];
  /** `<app>.<Model>.<field>` of the columns added. */
  addedColumns: string[];
  /** The `jql_migrations` row written, or null when nothing changed. */
  migrationId: number | null;
}

export interface MigrateOptions {
  /**
   * Written as the `jql_migrations` row's summary when the tables already match (a permission, a
   * limit or a module changed): `serve --watch` records every workspace it applies. Without it, such
   * a start records nothing.
   */
  unchanged?: string;
}

export function migrate(db: Sqlite, ws: Workspace, options: MigrateOptions = {}): MigrationReport {
  // better-sqlite3 rolls the transaction back when the function throws: a refusal leaves no trace.
  return db.transaction(() => {
    ensureRecordTables(db);
    const report: MigrationReport = { changes: [], createdTables: [], addedColumns: [], migrationId: null };
    const records = readFieldRecords(db);
    const targetTable = (key: string): string => ws.models.get(key)?.table ?? key;
    for (const model of ws.models.values()) {
      const recorded = records.get(model.key) ?? new Map<string, FieldRecord>();
      if (tableExists(db, model.table)) migrateTable(db, ws, model, recorded, targetTable, report);
      else createTable(db, model, targetTable, report);
      syncIndexes(db, ws, model, report);
    }
    for (const [modelKey, fields] of records) {
      if (ws.models.has(modelKey)) continue;
      const active = [...fields.values()].filter((f) => f.active);
      for (const field of active) deactivateFieldRecord(db, modelKey, field.field);
      if (active.length > 0) report.changes.push(`${modelKey}: model removed from the workspace (table and data kept)`);
    }
    const summary = report.changes.length > 0 ? report.changes.join('\n') : options.unchanged;
    if (summary !== undefined) report.migrationId = recordMigration(db, new Date().toISOString(), summary, workspaceDigest(ws));
    return report;
  })();
}

function createTable(db: Sqlite, model: ModelDef, targetTable: (key: string) => string, report: MigrationReport): void {
  db.exec(createTableSql(model, targetTable));
  for (const field of model.fields.values()) writeFieldRecord(db, model.key, field);
  report.createdTables.push(model.table);
  report.changes.push(`${model.key}: table created`);
}

function migrateTable(
  db: Sqlite,
  ws: Workspace,
  model: ModelDef,
  recorded: Map<string, FieldRecord>,
  targetTable: (key: string) => string,
  report: MigrationReport,
): void {
  const table = quoteIdent(model.table);
  const columns = new Map((db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string; type: string }>).map((c) => [c.name, c.type.toUpperCase()]));
  const rows = (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  for (const field of model.fields.values()) {
    const refuse = (problem: string): never => {
      throw new WorkspaceError(problem, { file: ws.file, app: model.app, model: model.name, field: field.name }, 'migration');
    };
    const before = recorded.get(field.name);
    const column = quoteIdent(field.column);
    const nulls = (): number => (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} IS NULL`).get() as { n: number }).n;

    if (!columns.has(field.column)) {
      if (rows > 0 && field.required) refuse(`a new required field needs a "default" (or "null": true): the table already holds ${rows} rows`);
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${columnDefinition(field, targetTable)}`);
      if (rows > 0) fillDefault(db, model, field);
      report.addedColumns.push(`${model.key}.${field.name}`);
      report.changes.push(`${model.key}.${field.name}: column added`);
    } else {
      if (before && (before.type !== field.type || before.target !== (field.to ?? null))) {
        const was = before.target ? `ref to ${before.target}` : before.type;
        const now = field.to ? `ref to ${field.to}` : field.type;
        refuse(`the type changed from ${was} to ${now}; the column keeps its data, so give the new field another name`);
      }
      if (!before && columns.get(field.column) !== columnSqlType(field.type)) {
        refuse(`the existing column holds ${columns.get(field.column) || 'untyped'} values, which does not fit type "${field.type}"`);
      }
      if (!before || !before.active) {
        // A re-added field: its kept data is served again; rows written while it was gone hold NULL.
        const missing = nulls();
        if (missing > 0 && field.default !== undefined && field.default !== null) fillDefault(db, model, field);
        else if (missing > 0 && field.required) refuse(`the field is required again but ${missing} rows hold NULL in it; give it a "default" or "null": true`);
        report.changes.push(`${model.key}.${field.name}: ${before ? 're-added, kept column served again' : 'existing column adopted'}`);
      } else {
        const stricter = (before.nullable && !field.nullable && field.auto === undefined) || (!before.required && field.required);
        if (stricter) {
          const missing = nulls();
          if (missing > 0) refuse(`made ${field.required ? 'required' : 'not nullable'} while ${missing} rows hold NULL in it`);
        }
        if (before.nullable !== field.nullable || before.required !== field.required) {
          report.changes.push(`${model.key}.${field.name}: now ${field.nullable ? 'nullable' : 'not nullable'}, ${field.required ? 'required' : 'not required'}`);
        }
      }
    }
    writeFieldRecord(db, model.key, field);
  }
  for (const before of recorded.values()) {
    if (before.active && !model.fields.has(before.field)) {
      deactivateFieldRecord(db, model.key, before.field);
      report.changes.push(`${model.key}.${before.field}: removed from the workspace (column and data kept)`);
    }
  }
}

/** Sets a (new or re-added) field's default on the rows that hold NULL in it. */
function fillDefault(db: Sqlite, model: ModelDef, field: FieldDef): void {
  if (field.default === undefined || field.default === null) return;
  const column = quoteIdent(field.column);
  db.prepare(`UPDATE ${quoteIdent(model.table)} SET ${column} = ? WHERE ${column} IS NULL`).run(toStored(field.type, field.default));
}

/** Creates the indexes the model wants and drops the ones migrations made that it no longer wants. */
function syncIndexes(db: Sqlite, ws: Workspace, model: ModelDef, report: MigrationReport): void {
  const existing = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?").all(model.table) as Array<{ name: string }>)
    .map((row) => row.name)
    .filter((name) => name.startsWith(INDEX_PREFIX) || name.startsWith(UNIQUE_PREFIX));
  const wanted = wantedIndexes(model);
  for (const name of existing) {
    if (wanted.some((index) => index.name === name)) continue;
    db.exec(`DROP INDEX ${quoteIdent(name)}`);
    report.changes.push(`${model.key}: index ${name} dropped`);
  }
  for (const index of wanted) {
    if (existing.includes(index.name)) continue;
    if (index.unique) refuseDuplicates(db, ws, model, index);
    db.exec(createIndexSql(model.table, index));
    report.changes.push(`${model.key}: index ${index.name} created`);
  }
}

function refuseDuplicates(db: Sqlite, ws: Workspace, model: ModelDef, index: IndexSpec): void {
  const column = quoteIdent(index.columns[0]);
  const duplicate = db
    .prepare(`SELECT ${column} AS value, COUNT(*) AS n FROM ${quoteIdent(model.table)} WHERE ${column} IS NOT NULL GROUP BY ${column} HAVING COUNT(*) > 1 LIMIT 1`)
    .get() as { value: unknown; n: number } | undefined;
  if (duplicate) {
    const field = [...model.fields.values()].find((f) => f.column === index.columns[0])?.name ?? index.columns[0];
    throw new WorkspaceError(`cannot become unique: ${duplicate.n} rows hold the value ${JSON.stringify(duplicate.value)}`, { file: ws.file, app: model.app, model: model.name, field }, 'migration');
  }
}

function tableExists(db: Sqlite, table: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
}
