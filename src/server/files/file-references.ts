/**
 * Reference counting of stored files (docs/protocol.md "Multipart uploads"): a `jql_files` row lives while a record names
 * it, and a blob while a row names its hash. Records name files in the columns of file fields; a
 * field removed from the workspace keeps its column and data (docs/workspace.md), so its column still
 * counts: every file field ever migrated (`jql_schema`, removed ones included) and every file field
 * of the workspace. Tables are named by model key and columns by field name (workspace/resolve-*.ts).
 */
import type { Sqlite } from '../db/database.ts';
import type { SqlRunner } from '../db/sql-session.ts';
import { quote } from '../query/paths.ts';
import type { Workspace } from '../workspace/types.ts';

export interface FileColumn {
  table: string;
  column: string;
}

export class FileReferences {
  private readonly byTable = new Map<string, string[]>();
  /** One statement that tells whether any column names a file id (bound once per column), or null. */
  private readonly referencedSql: string | null;
  private readonly probes: number;
  readonly columns: readonly FileColumn[];

  constructor(columns: readonly FileColumn[]) {
    this.columns = columns;
    for (const { table, column } of columns) {
      const list = this.byTable.get(table) ?? [];
      if (!list.includes(column)) list.push(column);
      this.byTable.set(table, list);
    }
    const probes = [...this.byTable].flatMap(([table, list]) => list.map((column) => `EXISTS (SELECT 1 FROM ${quote(table)} WHERE ${quote(column)} = ?)`));
    this.probes = probes.length;
    this.referencedSql = probes.length === 0 ? null : `SELECT (${probes.join(' OR ')}) AS used`;
  }

  /** Every column of `table` that holds file ids, removed fields' included. */
  columnsOf(table: string): readonly string[] {
    return this.byTable.get(table) ?? [];
  }

  /** The file ids a row holds in its file columns. */
  idsOf(sql: SqlRunner, table: string, id: number, columns: readonly string[] = this.columnsOf(table)): string[] {
    if (columns.length === 0) return [];
    const row = sql.get(`SELECT ${columns.map(quote).join(', ')} FROM ${quote(table)} WHERE "id" = ?`, [id]);
    return row ? columns.map((column) => row[column]).filter((value): value is string => typeof value === 'string') : [];
  }

  /**
   * Deletes the rows of the given files that no record names any more, in the caller's transaction;
   * returns the hashes of the rows deleted (their blobs may go once that transaction commits).
   */
  dropUnreferenced(sql: SqlRunner, ids: readonly string[]): string[] {
    const hashes: string[] = [];
    for (const id of new Set(ids)) {
      if (this.referencedSql && (sql.get(this.referencedSql, new Array<string>(this.probes).fill(id))?.used as number) === 1) continue;
      const row = sql.get('DELETE FROM jql_files WHERE id = ? RETURNING sha256', [id]);
      if (row) hashes.push(row.sha256 as string);
    }
    return hashes;
  }
}

/** The file columns of a database as migrated for `ws` (read at start, after the migration). */
export function readFileColumns(db: Sqlite, ws: Workspace): FileColumn[] {
  const recorded = db.prepare("SELECT model, field FROM jql_schema WHERE type = 'file'").all() as Array<{ model: string; field: string }>;
  const columns = recorded.map(({ model, field }) => ({ table: model, column: field }));
  for (const model of ws.models.values()) {
    for (const field of model.fields.values()) if (field.type === 'file') columns.push({ table: model.table, column: field.column });
  }
  return columns;
}

/**
 * At start: drops the file rows no record names (a deleted record or a replaced file used to leave
 * them for ever). Returns how many were dropped; the store's sweep then removes their blobs.
 */
export function pruneFileRows(db: Sqlite, references: FileReferences): number {
  const named = references.columns.map(({ table, column }) => `SELECT ${quote(column)} FROM ${quote(table)} WHERE ${quote(column)} IS NOT NULL`);
  const sql = named.length === 0 ? 'DELETE FROM jql_files' : `DELETE FROM jql_files WHERE id NOT IN (${named.join(' UNION ')})`;
  return db.prepare(sql).run().changes;
}
