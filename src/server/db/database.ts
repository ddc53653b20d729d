/**
 * Opens the SQLite database: WAL so readers never wait on a writer, foreign keys on, and a bounded
 * cache of prepared statements (SQL text is built only from workspace names, so the set of distinct
 * statements is small and each is prepared once).
 */
import Database from 'better-sqlite3';

export type Sqlite = Database.Database;
export type Statement = Database.Statement;

export function openDatabase(file: string): Sqlite {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

const MAX_STATEMENTS = 2000;

/** Prepared statements keyed by SQL text, least recently used dropped first. */
export class StatementCache {
  private readonly db: Sqlite;
  private readonly statements = new Map<string, Statement>();

  constructor(db: Sqlite) {
    this.db = db;
  }

  get(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement) {
      // Recency only matters once eviction is near: below that, a hit is a plain lookup.
      if (this.statements.size < MAX_STATEMENTS / 2) return statement;
      this.statements.delete(sql);
    } else {
      statement = this.db.prepare(sql);
      if (this.statements.size >= MAX_STATEMENTS) {
        const oldest = this.statements.keys().next().value;
        if (oldest !== undefined) this.statements.delete(oldest);
      }
    }
    this.statements.set(sql, statement);
    return statement;
  }
}
