/**
 * The SQL shape of a model: column types, column definitions, the tables' CREATE statement and the
 * indexes a model wants. Identifiers come only from the validated workspace and are always quoted.
 * No NOT NULL or CHECK constraints: the model processor validates, and creates must keep working
 * after a field is removed from the workspace (its column stays).
 */
import type { FieldType } from '../../shared/protocol.ts';
import type { FieldDef, ModelDef } from './types.ts';

export type ColumnSqlType = 'TEXT' | 'INTEGER' | 'REAL';

/** Prefixes of the indexes that migrations own (and may drop when the workspace stops asking). */
export const INDEX_PREFIX = 'jql_ix:';
export const UNIQUE_PREFIX = 'jql_uq:';

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function columnSqlType(type: FieldType): ColumnSqlType {
  switch (type) {
    case 'integer':
    case 'ref':
    case 'boolean':
      return 'INTEGER';
    case 'number':
      return 'REAL';
    case 'string':
    case 'text':
    case 'date':
    case 'datetime':
    case 'json':
    case 'file':
      return 'TEXT';
  }
}

/** `"title" TEXT`, or for a ref `"assignee" INTEGER REFERENCES "system.User"(id) ON DELETE SET NULL`. */
export function columnDefinition(field: FieldDef, targetTable: (modelKey: string) => string): string {
  let sql = `${quoteIdent(field.column)} ${columnSqlType(field.type)}`;
  if (field.type === 'ref' && field.to !== undefined) {
    // A required reference must not be silently emptied, so deleting its target is refused.
    sql += ` REFERENCES ${quoteIdent(targetTable(field.to))}(id) ON DELETE ${field.nullable ? 'SET NULL' : 'RESTRICT'}`;
  }
  return sql;
}

export function createTableSql(model: ModelDef, targetTable: (modelKey: string) => string): string {
  const columns = ['id INTEGER PRIMARY KEY AUTOINCREMENT', ...[...model.fields.values()].map((f) => columnDefinition(f, targetTable))];
  return `CREATE TABLE ${quoteIdent(model.table)} (${columns.join(', ')})`;
}

export interface IndexSpec {
  name: string;
  unique: boolean;
  columns: string[];
}

/**
 * Unique fields get a unique index; ref fields, file fields (a download looks up the records holding
 * a file by its id) and `indexes` entries get a plain one.
 */
export function wantedIndexes(model: ModelDef): IndexSpec[] {
  const wanted = new Map<string, IndexSpec>();
  const add = (unique: boolean, columns: string[]): void => {
    const name = `${unique ? UNIQUE_PREFIX : INDEX_PREFIX}${model.table}:${columns.join(',')}`;
    if (!wanted.has(name)) wanted.set(name, { name, unique, columns });
  };
  for (const field of model.fields.values()) if (field.unique) add(true, [field.column]);
  for (const field of model.fields.values()) if ((field.type === 'ref' || field.type === 'file') && !field.unique) add(false, [field.column]);
  for (const names of model.indexes) add(false, names.map((name) => model.fields.get(name)?.column ?? name));
  return [...wanted.values()];
}

export function createIndexSql(table: string, index: IndexSpec): string {
  const columns = index.columns.map(quoteIdent).join(', ');
  return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${quoteIdent(index.name)} ON ${quoteIdent(table)} (${columns})`;
}
