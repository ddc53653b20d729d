/**
 * The event log's tables, made at start on the writer: `jql_events` (docs/protocol.md "Streams"), and one
 * connection-local (TEMP) trigger per table that copies a row aside just before it is deleted, so
 * a `deleted` event can describe the record as it was (event-log.ts takes the copy from there).
 */
import type { Sqlite } from '../db/database.ts';
import { DOCUMENTS_TABLE } from '../processors/nosql/tables.ts';
import { quote } from '../query/paths.ts';
import type { Workspace } from '../workspace/types.ts';
import { DOCUMENT_COLUMNS, snapshotFields } from './snapshot.ts';

/** json_object() takes at most 127 arguments by default: wide tables are copied in slices. */
const COLUMNS_PER_OBJECT = 60;

export function setupEventTables(db: Sqlite, ws: Workspace): void {
  ensureEventTables(db);
  installPreImageCapture(db, ws);
}

export function ensureEventTables(db: Sqlite): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS jql_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      at TEXT NOT NULL,
      namespace TEXT NOT NULL,
      schema TEXT NOT NULL,
      event TEXT NOT NULL,
      record_id INTEGER,
      payload TEXT NOT NULL -- JSON: {"row": {...}} or {"record": ...}
    );
    CREATE INDEX IF NOT EXISTS jql_events_namespace ON jql_events (namespace, seq);
  `);
}

/** One TEMP trigger per table that copies a row's readable columns aside just before it is deleted. */
function installPreImageCapture(db: Sqlite, ws: Workspace): void {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS jql_deleted_rows (tbl TEXT NOT NULL, id INTEGER NOT NULL, row TEXT NOT NULL)');
  const tables: Array<{ table: string; columns: readonly string[] }> = [
    { table: DOCUMENTS_TABLE, columns: DOCUMENT_COLUMNS },
    ...[...ws.models.values()].map((model) => ({ table: model.table, columns: snapshotFields(model).map((field) => field.column) })),
  ];
  for (const { table, columns } of tables) {
    const name = quote(`jql_streams_pre_delete(${table})`);
    db.exec(`DROP TRIGGER IF EXISTS temp.${name}`);
    db.exec(
      `CREATE TEMP TRIGGER ${name} BEFORE DELETE ON main.${quote(table)} BEGIN ` +
        `INSERT INTO jql_deleted_rows (tbl, id, row) VALUES (${literal(table)}, OLD."id", ${rowObject(columns)}); END`,
    );
  }
}

/** `json_object('col', OLD."col", ...)`; a BLOB (which JSON cannot hold) is copied as null. */
function rowObject(columns: readonly string[]): string {
  const slices: string[] = [];
  for (let i = 0; i < columns.length; i += COLUMNS_PER_OBJECT) {
    const pairs = columns.slice(i, i + COLUMNS_PER_OBJECT).map((column) => {
      const value = `OLD.${quote(column)}`;
      return `${literal(column)}, CASE WHEN typeof(${value}) = 'blob' THEN NULL ELSE ${value} END`;
    });
    slices.push(`json_object(${pairs.join(', ')})`);
  }
  // json_patch drops null members of later slices: a missing column reads as null all the same.
  return slices.reduce((joined, slice) => `json_patch(${joined}, ${slice})`);
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
